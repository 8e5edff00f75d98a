import DBusTestSupport
import Foundation
import Testing

/// `CertificateFile=` and `KeyFile=` against a broker that requires a client certificate (docs/home-assistant.md,
/// "Configuration").
extension MQTTForwardingTests {
    @Test("A broker that requires client certificates: without one, refused with the reason in the log and nothing published; with CertificateFile= and KeyFile=, every reading arrives over TLS")
    func clientCertificate() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.paired(teardown, tls: true, requireCertificate: true)
            let broker = forwarding.broker
            let authority = try #require(broker.certificates?.authority)
            let url = "mqtts://localhost:\(broker.port)"
            let configured = try String(contentsOfFile: forwarding.configurationPath, encoding: .utf8)
            #expect(configured.contains("CertificateFile=") && configured.contains("KeyFile="))

            try forwarding.writeConfiguration(password: nil, url: url, caFile: authority)
            try forwarding.startForwarder(log: "without.log")
            try await forwarding.stack.wait(for: "the MQTT broker is unreachable", in: "without.log")
            let log = forwarding.stack.text("without.log")
            #expect(log.contains("certificate"), "\(log)")
            #expect(!log.contains("connected to the MQTT broker"), "\(log)")
            #expect(!log.contains("MQTT 3.1.1"), "the refusal taken for a broker without MQTT 5: \(log)")
            try await forwarding.killForwarder()
            #expect(forwarding.readingMessages().isEmpty && !forwarding.seen().contains { $0.topic == "cuffd/status" })

            try configured.write(toFile: forwarding.configurationPath, atomically: false, encoding: .utf8)
            try forwarding.startForwarder()
            try await forwarding.waitForEveryReading()
            try await forwarding.stack.wait(for: "connected to the MQTT broker \(url) (MQTT 5, TLS)", in: "forward.log")
        }
    }
}
