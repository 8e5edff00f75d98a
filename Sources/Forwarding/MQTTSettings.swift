import DurableFiles
import FoundationEssentials
import INIConfiguration

/// forward.conf's `[MQTT]` section (docs/home-assistant.md, "Configuration"): the broker Home Assistant listens to.
///
///     [MQTT]
///     URL=mqtts://broker.home.arpa
///     User=cuff-forward
///     PasswordFile=/run/credentials/cuff-forward.service/mqttpassword
///     CAFile=/etc/ssl/certs/home-ca.pem
///     CertificateFile=/etc/cuffd/mqtt-client.pem
///     KeyFile=/run/credentials/cuff-forward.service/mqttkey
public struct MQTTSettings: Sendable, Equatable {
    /// `URL=`, as written: `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`.
    public var url: String
    public var host: String
    /// The URL's port, else the IANA ports for MQTT: 1883, and 8883 over TLS.
    public var port: Int32
    /// `mqtts://`: TLS, the broker's certificate verified against `CAFile=` or the system's CAs.
    public var usesTLS: Bool
    /// The MQTT client identifier (MQTT 3.1.1 §3.1.3.1): `ClientID=`, else `cuff-forward-GATEWAY`.
    public var clientID: String
    /// The first level of the state topics, `PREFIX/<cuff>/<user>/state`, and of `PREFIX/status`.
    public var topicPrefix = "cuffd"
    /// Home Assistant's discovery prefix (its MQTT integration's setting, `homeassistant` unless changed there).
    public var discoveryPrefix = "homeassistant"
    public var user: String?
    /// The file whose first line is the password; read at each connection.
    public var passwordFile: PasswordFile?
    /// The CA certificates (PEM) the broker's certificate must chain to; nil: the system's (`/etc/ssl/certs`).
    public var caFile: String?
    /// `CertificateFile=` and `KeyFile=`: the certificate to present to a broker that asks for one.
    public var clientCertificate: ClientCertificate?
    /// This sink's anchor: `State=`, else `mqtt/anchor` in the folder of `[Forward]`'s `State=`.
    public var statePath: String
    /// `HeartRateInterval=`: the least time, in seconds of the samples' own times, between two heart-rate states of one
    /// sensor (docs/home-assistant.md, "Heart rate"); 0 publishes every value.
    public var heartRateInterval = 5

    /// The largest `HeartRateInterval=`: an hour.
    static let heartRateIntervalLimit = 3600

    init(_ reader: SectionReader, gateway: String, forwardState: String) throws(ConfigurationError) {
        try reader.allow(["URL", "ClientID", "TopicPrefix", "DiscoveryPrefix", "User", "PasswordFile", "CAFile", "CertificateFile", "KeyFile", "State", "HeartRateInterval"])
        guard let entry = reader.entry("URL") else {
            throw reader.fail(reader.section.line, "[MQTT] needs URL=, a broker such as mqtt://localhost or mqtts://broker.home.arpa:8883")
        }
        (host, port, usesTLS) = try Self.broker(entry.value, reader: reader, line: entry.line)
        url = entry.value
        clientID = reader.string("ClientID") ?? "cuff-forward-\(gateway)"
        if let prefix = try Self.topicLevels("TopicPrefix", reader) { topicPrefix = prefix }
        if let prefix = try Self.topicLevels("DiscoveryPrefix", reader) { discoveryPrefix = prefix }
        user = reader.string("User")
        passwordFile = try PasswordFile(reader)
        if let passwordFile, user == nil {
            // MQTT 3.1.1 §3.1.2.9: a password without a user name is a protocol violation.
            throw reader.fail(passwordFile.line, "PasswordFile= needs User=, the name the password belongs to")
        }
        caFile = try reader.path("CAFile")
        if caFile != nil, !usesTLS { throw reader.fail(reader.entry("CAFile")!.line, "CAFile= needs an mqtts:// URL (TLS)") }
        clientCertificate = try ClientCertificate.read(reader, usesTLS: usesTLS)
        statePath = try reader.path("State") ?? (parentFolder(of: forwardState) + "/mqtt/anchor")
        if let entry = reader.entry("HeartRateInterval") {
            guard entry.value.allSatisfy(\.isASCII), let seconds = Int(entry.value), (0...Self.heartRateIntervalLimit).contains(seconds) else {
                throw reader.fail(entry.line, "HeartRateInterval= must be whole seconds from 0 to \(Self.heartRateIntervalLimit), not \"\(entry.value.prefix(40))\"")
            }
            heartRateInterval = seconds
        }
    }

    /// Host, port and TLS of `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`; credentials in it are refused.
    private static func broker(_ url: String, reader: SectionReader, line: Int) throws(ConfigurationError) -> (String, Int32, Bool) {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme, ["mqtt", "mqtts"].contains(scheme) else {
            throw reader.fail(line, "URL must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT], not \"\(url.prefix(80))\"")
        }
        guard parts.user == nil, parts.password == nil else {
            throw reader.fail(line, "URL must not hold a user or password; put them in User= and PasswordFile=")
        }
        // An IPv6 literal's host comes with its brackets (`[::1]`); libmosquitto wants the address alone.
        guard let host = parts.host.map({ String($0.drop { $0 == "[" }.reversed().drop { $0 == "]" }.reversed()) }), !host.isEmpty else {
            throw reader.fail(line, "URL names no broker host")
        }
        guard parts.path.isEmpty || parts.path == "/", parts.query == nil, parts.fragment == nil else {
            throw reader.fail(line, "URL must be only mqtt(s)://HOST[:PORT]; topics are set by TopicPrefix=")
        }
        let tls = scheme == "mqtts"
        // The port as written: URLComponents' `port` is nil for one too large for an Int, as for none.
        guard let written = parts.rangeOfPort.map({ url[$0] }) else { return (host, tls ? 8883 : 1883, tls) }
        guard let port = PortNumber.parse(written) else {
            throw reader.fail(line, "URL: the port must be 1–65535, not \"\(written.prefix(40))\"")
        }
        return (host, port, tls)
    }

    /// A prefix of topic levels: not empty, no wildcards `+` `#` (MQTT 3.1.1 §4.7.1), no empty level, no NUL.
    private static func topicLevels(_ key: String, _ reader: SectionReader) throws(ConfigurationError) -> String? {
        guard let entry = reader.entry(key) else { return nil }
        let levels = entry.value.split(separator: "/", omittingEmptySubsequences: false)
        guard !entry.value.isEmpty, !levels.contains(where: \.isEmpty), !entry.value.contains(where: { "+#\0".contains($0) }) else {
            throw reader.fail(entry.line, "\(key) must be topic levels such as cuffd or home/cuffd: no +, #, or empty level")
        }
        return entry.value
    }
}
