import INIConfiguration

/// cuff-forward's settings, read from `/etc/cuffd/forward.conf` (docs/forwarding.md, "Configuration") with the
/// parser cuffd.conf uses, so that a mistake names its line the same way. `[Forward]` names the gateway; each of
/// `[PostgreSQL]` (``PostgreSQLSettings``), `[MQTT]` (``MQTTSettings``, docs/home-assistant.md) and `[HTTP]`
/// (``HTTPSettings``) that is present
/// is a sink the readings go to, each with an anchor of its own:
///
///     [Forward]
///     Gateway=ward3-bed12
///     State=/var/lib/cuff-forward/anchor
///
///     [PostgreSQL]
///     URL=postgresql://gateway1@db.example.org:5432/health
///
///     [MQTT]
///     URL=mqtt://localhost
public struct ForwardConfiguration: Sendable, Equatable {
    /// The name this gateway's rows carry centrally, and part of the MQTT client identifier: 1 to
    /// ``gatewayLimit`` bytes of UTF-8, none of them a control or format character (``gatewayName(_:)``).
    public var gateway: String
    /// The file holding the last anchor PostgreSQL acknowledged; the MQTT sink's state is in `mqtt/` beside it.
    public var statePath = "/var/lib/cuff-forward/anchor"
    public var postgreSQL: PostgreSQLSettings?
    public var mqtt: MQTTSettings?
    public var http: HTTPSettings?

    /// Parses a file's text; `file` names it in errors.
    public init(parsing text: String, file: String) throws(ConfigurationError) {
        let document = try INIDocument(parsing: text, file: file)
        var gateway: String?, mqttReader: SectionReader?, httpReader: SectionReader?
        for section in document.sections {
            let reader = SectionReader(section: section, file: file)
            switch section.header {
            case "Forward":
                try reader.allow(["Gateway", "State"])
                gateway = try Self.gatewayName(reader)
                if let path = try reader.path("State") { statePath = path }
            case "PostgreSQL":
                postgreSQL = try PostgreSQLSettings(reader)
            case "MQTT":
                mqttReader = reader
            case "HTTP":
                httpReader = reader
            default:
                throw ConfigurationError(
                    file: file, line: section.line, message: "unknown section [\(section.header)]; expected [Forward], [PostgreSQL], [MQTT] or [HTTP]")
            }
        }
        guard let gateway else { throw ConfigurationError(file: file, line: 0, message: "[Forward] needs Gateway=, the name this gateway's readings carry") }
        self.gateway = gateway
        // Read last: its defaults derive from Gateway= and State=, wherever [Forward] stands in the file.
        if let mqttReader { mqtt = try MQTTSettings(mqttReader, gateway: gateway, forwardState: statePath) }
        if let httpReader { http = try HTTPSettings(httpReader, forwardState: statePath) }
        guard postgreSQL != nil || mqtt != nil || http != nil else {
            throw ConfigurationError(file: file, line: 0, message: "nothing to forward to: add a [PostgreSQL], an [MQTT] or an [HTTP] section")
        }
    }

    /// The longest `Gateway=`, in bytes of UTF-8: a name a person reads in a table, a log line and a status, not a
    /// document.
    public static let gatewayLimit = 64

    /// `Gateway=`, refused when it is longer than ``gatewayLimit`` or holds a character that is not printed: a control
    /// character (a tab, a line end, an escape sequence's ESC), a format character (bidirectional overrides, zero-width
    /// ones), or a line or paragraph separator — each would make the name in the log, in `cuffctl forward status` and
    /// in the central table other than it looks.
    private static func gatewayName(_ reader: SectionReader) throws(ConfigurationError) -> String? {
        guard let entry = reader.entry("Gateway"), !entry.value.isEmpty else { return nil }
        guard entry.value.utf8.count <= gatewayLimit else {
            throw reader.fail(entry.line, "Gateway= must be at most \(gatewayLimit) bytes, not \(entry.value.utf8.count)")
        }
        if let hidden = entry.value.unicodeScalars.first(where: { [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) }) {
            let hex = String(hidden.value, radix: 16, uppercase: true)
            throw reader.fail(entry.line, "Gateway= must be printable; it holds U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)")
        }
        return entry.value
    }

    /// Reads the configuration file; a missing or unreadable file is an error (nothing to forward to).
    public init(contentsOf path: String) throws(ConfigurationError) {
        let text: String
        do {
            text = try TextFile.read(path)
        } catch {
            throw ConfigurationError(file: path, line: 0, message: "cannot be read: \(error.reason)")
        }
        try self.init(parsing: text, file: path)
    }
}
