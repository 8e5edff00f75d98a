import DurableFiles
import FoundationEssentials
import INIConfiguration

/// forward.conf's `[HTTP]` section (docs/forwarding.md, "The HTTP sink"): a receiver each page is POSTed to — a webhook
/// of the user's own (JSON lines, signed) or InfluxDB 1.x's `/write` (line protocol).
///
///     [HTTP]
///     URL=https://receiver.home.arpa/cuffd
///     Format=jsonl
///     HMACKeyFile=/run/credentials/cuff-forward.service/hmackey
///     Timeout=30
///     CAFile=/etc/ssl/certs/home-ca.pem
public struct HTTPSettings: Sendable, Equatable {
    /// What a page's body is.
    public enum Format: String, Sendable, Equatable {
        /// JSON lines (``HTTPBody/jsonLines(_:gateway:)``), `application/x-ndjson`.
        case jsonl
        /// InfluxDB line protocol (``InfluxLine``), for InfluxDB 1.x's `/write?db=…`.
        case influx
    }

    /// `URL=`, as written: `http://` or `https://`, with its path and query (`/write?db=health`).
    public var url: String
    public var format = Format.jsonl
    /// `HMACKeyFile=`: the key of the `X-Cuffd-Signature` header, read at each page so that a rotated key is picked up.
    /// Required for `jsonl` (a webhook must be able to tell cuff-forward's POSTs from anyone's); optional for `influx`.
    public var hmacKeyFile: PasswordFile?
    /// `Timeout=`: the longest a POST may take, connection included, in seconds.
    public var timeout = 30
    /// The CA certificates (PEM) an `https://` receiver's certificate must chain to; nil: the system's.
    public var caFile: String?
    /// This sink's anchor: `State=`, else `http/anchor` in the folder of `[Forward]`'s `State=`.
    public var statePath: String

    /// The largest `Timeout=`: ten minutes.
    static let timeoutLimit = 600

    init(_ reader: SectionReader, forwardState: String) throws(ConfigurationError) {
        try reader.allow(["URL", "Format", "HMACKeyFile", "Timeout", "CAFile", "State"])
        guard let entry = reader.entry("URL") else {
            throw reader.fail(
                reader.section.line, "[HTTP] needs URL=, a receiver such as https://receiver.home.arpa/cuffd or http://127.0.0.1:8086/write?db=health")
        }
        guard let parts = URLComponents(string: entry.value), let scheme = parts.scheme, ["http", "https"].contains(scheme),
              let host = parts.host, !host.isEmpty
        else { throw reader.fail(entry.line, "URL must be http://HOST[:PORT]/PATH or https://…, not \"\(entry.value.prefix(80))\"") }
        // InfluxDB 1.x takes its password as the query's `p=`.
        guard parts.user == nil, parts.password == nil, !(parts.queryItems ?? []).contains(where: { $0.name == "p" }) else {
            throw reader.fail(entry.line, "URL must not hold a user or password: secrets come from files (HMACKeyFile=)")
        }
        if let written = parts.rangeOfPort.map({ entry.value[$0] }), PortNumber.parse(written) == nil {
            throw reader.fail(entry.line, "URL: the port must be 1–65535, not \"\(written.prefix(40))\"")
        }
        url = entry.value
        if let entry = reader.entry("Format") {
            guard let format = Format(rawValue: entry.value) else {
                throw reader.fail(entry.line, "Format must be jsonl or influx, not \"\(entry.value.prefix(40))\"")
            }
            self.format = format
        }
        hmacKeyFile = try PasswordFile(reader, key: "HMACKeyFile")
        if let hmacKeyFile {
            // Read now, so that a key that cannot be read, or an empty one, is refused at its line when cuff-forward starts.
            guard !(try hmacKeyFile.read()).isEmpty else { throw reader.fail(hmacKeyFile.line, "HMACKeyFile=\(hmacKeyFile.path) holds an empty key") }
        } else if format == .jsonl {
            throw reader.fail(
                reader.section.line, "[HTTP] with Format=jsonl needs HMACKeyFile=, the key the receiver checks each page's X-Cuffd-Signature with")
        }
        if let entry = reader.entry("Timeout") {
            guard entry.value.allSatisfy(\.isASCII), let seconds = Int(entry.value), (1...Self.timeoutLimit).contains(seconds) else {
                throw reader.fail(entry.line, "Timeout= must be whole seconds from 1 to \(Self.timeoutLimit), not \"\(entry.value.prefix(40))\"")
            }
            timeout = seconds
        }
        caFile = try reader.path("CAFile")
        if caFile != nil, scheme != "https" { throw reader.fail(reader.entry("CAFile")!.line, "CAFile= needs an https:// URL (TLS)") }
        statePath = try reader.path("State") ?? (parentFolder(of: forwardState) + "/http/anchor")
    }
}
