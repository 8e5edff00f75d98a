import CPostgreSQL
import INIConfiguration

/// forward.conf's `[PostgreSQL]` section (docs/forwarding.md, "Configuration"): where the central server is.
///
///     [PostgreSQL]
///     URL=postgresql://gateway1@db.example.org:5432/health
///     PasswordFile=/run/credentials/cuff-forward.service/pgpassword
///     SSLMode=verify-full
public struct PostgreSQLSettings: Sendable, Equatable {
    /// libpq's `sslmode` values (PostgreSQL 15 documentation §34.19.1, "Protection Provided in Different Modes").
    public enum SSLMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    /// A libpq connection URI (§34.1.1.2).
    public var url: String
    /// The file whose first line is the password (a systemd credential: `LoadCredential=`); nil for none.
    public var passwordFile: String?
    /// `SSLMode=`, else the URL's `sslmode`, else `verify-full` — not libpq's own default, `prefer`, which
    /// accepts an unencrypted session and a server it cannot verify.
    public var sslMode: SSLMode

    init(_ reader: SectionReader) throws(ConfigurationError) {
        try reader.allow(["URL", "PasswordFile", "SSLMode"])
        guard let entry = reader.entry("URL") else {
            throw reader.fail(reader.section.line, "[PostgreSQL] needs URL=, a connection URI such as postgresql://gateway1@db.example.org/health")
        }
        let urlMode = try Self.sslMode(ofURL: entry.value, reader: reader, line: entry.line)
        url = entry.value
        passwordFile = try reader.path("PasswordFile")
        sslMode = try reader.choice("SSLMode", of: SSLMode.self) ?? urlMode ?? .verifyFull
    }

    /// Checks the URI as libpq will read it (`PQconninfoParse`, §34.1) and returns its `sslmode`, if it has one.
    /// `gssencmode=require` is refused here: cuff-forward's libpq has no GSSAPI (Sources/CPostgreSQLStatic), and libpq's
    /// own words for it at each connection would blame a missing credential cache.
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
            if String(cString: keyword) == "gssencmode", let value = option.pointee.val, String(cString: value) == "require" {
                throw reader.fail(line, "URL asks for GSSAPI encryption (gssencmode=require), which cuff-forward is built without; TLS is SSLMode=")
            }
            option += 1
        }
        return mode
    }
}
