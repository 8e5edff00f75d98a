import CPostgreSQL
import Foundation
import INIConfiguration

/// cuff-forward's settings, read from `/etc/cuffd/forward.conf` (docs/forwarding.md, "Configuration") with the
/// parser cuffd.conf uses, so that a mistake names its line the same way:
///
///     [Forward]
///     Gateway=ward3-bed12
///     State=/var/lib/cuff-forward/anchor
///
///     [PostgreSQL]
///     URL=postgresql://gateway1@db.example.org:5432/health
///     PasswordFile=/run/credentials/cuff-forward.service/pgpassword
///     SSLMode=verify-full
public struct ForwardConfiguration: Sendable, Equatable {
    /// libpq's `sslmode` values (PostgreSQL 15 documentation §34.19.1, "Protection Provided in Different Modes").
    public enum SSLMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    /// The name this gateway's rows carry centrally.
    public var gateway: String
    /// The file holding the last anchor PostgreSQL acknowledged.
    public var statePath = "/var/lib/cuff-forward/anchor"
    /// A libpq connection URI (§34.1.1.2).
    public var url: String
    /// The file whose first line is the password (a systemd credential: `LoadCredential=`); nil for none.
    public var passwordFile: String?
    /// `SSLMode=`, else the URL's `sslmode`, else `verify-full` — not libpq's own default, `prefer`, which
    /// accepts an unencrypted session and a server it cannot verify.
    public var sslMode: SSLMode

    /// Parses a file's text; `file` names it in errors.
    public init(parsing text: String, file: String) throws(ConfigurationError) {
        let document = try INIDocument(parsing: text, file: file)
        var gateway: String?, url: String?, sslMode: SSLMode?, urlMode: SSLMode?
        for section in document.sections {
            let reader = SectionReader(section: section, file: file)
            switch section.header {
            case "Forward":
                try reader.allow(["Gateway", "State"])
                gateway = reader.string("Gateway")
                if let path = try reader.path("State") { statePath = path }
            case "PostgreSQL":
                try reader.allow(["URL", "PasswordFile", "SSLMode"])
                if let entry = reader.entry("URL") {
                    urlMode = try Self.sslMode(ofURL: entry.value, reader: reader, line: entry.line)
                    url = entry.value
                }
                passwordFile = try reader.path("PasswordFile")
                sslMode = try reader.choice("SSLMode", of: SSLMode.self)
            default:
                throw ConfigurationError(file: file, line: section.line, message: "unknown section [\(section.header)]; expected [Forward] or [PostgreSQL]")
            }
        }
        guard let gateway else { throw ConfigurationError(file: file, line: 0, message: "[Forward] needs Gateway=, the name this gateway's readings carry") }
        guard let url else { throw ConfigurationError(file: file, line: 0, message: "[PostgreSQL] needs URL=, a connection URI such as postgresql://gateway1@db.example.org/health") }
        self.gateway = gateway
        self.url = url
        self.sslMode = sslMode ?? urlMode ?? .verifyFull
    }

    /// Reads the configuration file; a missing or unreadable file is an error (nothing to forward to).
    public init(contentsOf path: String) throws(ConfigurationError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(file: path, line: 0, message: "cannot be read: \(error.localizedDescription)")
        }
        try self.init(parsing: text, file: path)
    }

    /// Checks the URI as libpq will read it (`PQconninfoParse`, §34.1) and returns its `sslmode`, if it has one.
    private static func sslMode(ofURL url: String, reader: SectionReader, line: Int) throws(ConfigurationError) -> SSLMode? {
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw reader.fail(line, "URL must be a postgresql:// connection URI, not \"\(url.prefix(80))\"")
        }
        var problem: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &problem) else {
            let why = problem.map { String(cString: $0).trimmingWhitespace() } ?? "not a connection URI"
            PQfreemem(problem)
            throw reader.fail(line, "URL: \(why)")
        }
        defer { PQconninfoFree(options) }
        var option = options, mode: SSLMode?
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", option.pointee.val != nil {
                throw reader.fail(line, "URL must not hold the password; put it in PasswordFile=")
            }
            if String(cString: keyword) == "sslmode", let value = option.pointee.val {
                let text = String(cString: value)
                guard let known = SSLMode(rawValue: text) else { throw reader.fail(line, "URL: sslmode \"\(text)\" is not one libpq knows") }
                mode = known
            }
            option += 1
        }
        return mode
    }
}
