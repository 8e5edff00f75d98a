import Forwarding
import Foundation
import INIConfiguration
import Testing

@Suite("forward.conf [MQTT]")
struct MQTTSettingsTests {
    static func parse(_ mqtt: String, forward: String = "[Forward]\nGateway=ward3\n") throws -> ForwardConfiguration {
        try ForwardConfiguration(parsing: forward + "[MQTT]\n" + mqtt, file: "forward.conf")
    }

    @Test("MQTT alone is a configuration; the defaults: port 1883, prefixes cuffd and homeassistant, the anchor in mqtt/ beside State=")
    func defaults() throws {
        let configuration = try Self.parse("URL=mqtt://broker.home.arpa\n")
        #expect(configuration.postgreSQL == nil)
        let mqtt = try #require(configuration.mqtt)
        #expect(mqtt.host == "broker.home.arpa" && mqtt.port == 1883 && !mqtt.usesTLS)
        #expect(mqtt.topicPrefix == "cuffd" && mqtt.discoveryPrefix == "homeassistant")
        #expect(mqtt.clientID == "cuff-forward-ward3")
        #expect(mqtt.user == nil && mqtt.passwordFile == nil && mqtt.caFile == nil)
        #expect(mqtt.statePath == "/var/lib/cuff-forward/mqtt/anchor")
        #expect(mqtt.heartRateInterval == 5)
        #expect(try Self.parse("URL=mqtt://b\nHeartRateInterval=0\n").mqtt?.heartRateInterval == 0)
        #expect(try Self.parse("URL=mqtt://b\nHeartRateInterval=3600\n").mqtt?.heartRateInterval == 3600)
    }

    @Test("mqtts: port 8883 and the CA file; every key read; the [Forward] section may come after [MQTT]")
    func everything() throws {
        let configuration = try ForwardConfiguration(
            parsing: """
                [MQTT]
                URL=mqtts://[::1]:8884
                ClientID=gw
                TopicPrefix=home/bp
                DiscoveryPrefix=ha
                User=cuff
                PasswordFile=/run/mqtt-password
                CAFile=/etc/ssl/home-ca.pem
                [Forward]
                Gateway=ward3
                State=/srv/forward/anchor
                [PostgreSQL]
                URL=postgresql://db/health
                """, file: "forward.conf")
        let mqtt = try #require(configuration.mqtt)
        #expect(mqtt.host == "::1" && mqtt.port == 8884 && mqtt.usesTLS)
        #expect(mqtt.clientID == "gw" && mqtt.topicPrefix == "home/bp" && mqtt.discoveryPrefix == "ha")
        #expect(mqtt.user == "cuff" && mqtt.passwordFile?.path == "/run/mqtt-password" && mqtt.caFile == "/etc/ssl/home-ca.pem")
        #expect(mqtt.statePath == "/srv/forward/mqtt/anchor")
        #expect(configuration.postgreSQL != nil)
        #expect(try Self.parse("URL=mqtts://b\n").mqtt?.port == 8883)
        #expect(try Self.parse("URL=mqtt://b:65535\n").mqtt?.port == 65535)
        #expect(try Self.parse("URL=mqtt://b:1\n").mqtt?.port == 1)
    }

    @Test(
        "A mistake names its line",
        arguments: [
            ("URL=http://broker\n", 4, "URL must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"),
            ("URL=mqtt://b\nHeartRateInterval=3601\n", 5, "HeartRateInterval= must be whole seconds from 0 to 3600, not \"3601\""),
            ("URL=mqtt://b\nHeartRateInterval=2.5\n", 5, "HeartRateInterval= must be whole seconds"),
            ("URL=mqtt://b\nHeartRateInterval=-1\n", 5, "HeartRateInterval= must be whole seconds"),
            ("URL=mqtt://user:secret@broker\n", 4, "must not hold a user or password"),
            ("URL=mqtt://broker/cuffd\n", 4, "topics are set by TopicPrefix="),
            ("URL=mqtt://broker:0\n", 4, "the port must be 1–65535"),
            ("URL=mqtt://broker:65536\n", 4, "the port must be 1–65535, not \"65536\""),
            // Too large for an Int: URLComponents' port is nil, as for a URL without one.
            ("URL=mqtt://127.0.0.1:99999999999999999999\n", 4, "the port must be 1–65535"),
            ("URL=mqtts://[::1]:9223372036854775808\n", 4, "the port must be 1–65535"),
            ("URL=mqtt://broker\nTopicPrefix=cuffd/#\n", 5, "TopicPrefix must be topic levels"),
            ("URL=mqtt://broker\nDiscoveryPrefix=ha//x\n", 5, "DiscoveryPrefix must be topic levels"),
            ("URL=mqtt://broker\nPasswordFile=/run/pw\n", 5, "PasswordFile= needs User="),
            ("URL=mqtt://broker\nCAFile=/etc/ca.pem\n", 5, "CAFile= needs an mqtts:// URL"),
            ("URL=mqtts://broker\nCAFile=ca.pem\n", 5, "CAFile must be an absolute path"),
            ("URL=mqtt://broker\nQoS=2\n", 5, "unknown key \"QoS\" in [MQTT]"),
            ("User=cuff\n", 3, "[MQTT] needs URL="),
            ("URL=mqtts://broker\nCertificateFile=/etc/c.pem\n", 5, "CertificateFile= needs KeyFile="),
            ("URL=mqtts://broker\nKeyFile=/etc/k.pem\n", 5, "KeyFile= needs CertificateFile="),
            ("URL=mqtt://broker\nKeyFile=/etc/k.pem\nCertificateFile=/etc/c.pem\n", 5, "KeyFile= needs an mqtts:// URL"),
            ("URL=mqtts://broker\nCertificateFile=c.pem\nKeyFile=/etc/k.pem\n", 5, "CertificateFile must be an absolute path"),
            ("URL=mqtts://broker\nCertificateFile=/nonexistent/c.pem\nKeyFile=/nonexistent/k.pem\n", 5,
             "CertificateFile=/nonexistent/c.pem cannot be read: No such file or directory"),
        ])
    func refused(text: String, line: Int, fragment: String) {
        #expect {
            _ = try Self.parse(text)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.line == line && error.message.contains(fragment)
        }
    }

    @Test("CertificateFile= and KeyFile=: a readable PEM pair is taken; a file that is no certificate, a key file without a key, an encrypted key, or a folder is refused at its line")
    func clientCertificate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mqtt-settings-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String, _ text: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
        let certificate = try file("client.crt", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
        let key = try file("client.key", "-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n")
        let pair = "URL=mqtts://broker\nCertificateFile=\(certificate)\nKeyFile=\(key)\n"
        let taken = try #require(try Self.parse(pair).mqtt?.clientCertificate)
        #expect(taken.certificateFile == certificate && taken.keyFile == key)

        let refusals = [
            ("CertificateFile=\(key)\nKeyFile=\(key)\n", 5, "holds no PEM certificate"),
            ("CertificateFile=\(certificate)\nKeyFile=\(certificate)\n", 6, "holds no PEM private key"),
            ("CertificateFile=\(certificate)\nKeyFile=\(try file("encrypted.key", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIH\n-----END ENCRYPTED PRIVATE KEY-----\n"))\n", 6,
             "is encrypted"),
            ("CertificateFile=\(directory.path)\nKeyFile=\(key)\n", 5, "cannot be read"),
        ]
        for (lines, line, fragment) in refusals {
            #expect {
                _ = try Self.parse("URL=mqtts://broker\n" + lines)
            } throws: { error in
                guard let error = error as? ConfigurationError else { return false }
                return error.line == line && error.message.contains(fragment)
            }
        }
    }
}
