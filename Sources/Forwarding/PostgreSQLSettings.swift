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
    public var passwordFile: PasswordFile?
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
        passwordFile = try PasswordFile(reader)
        sslMode = try reader.choice("SSLMode", of: SSLMode.self) ?? urlMode ?? .verifyFull
    }

    /// Checks the URI as libpq will read it (`PQconninfoParse`, §34.1) and returns its `sslmode`, if it has one.
    /// Refused besides what libpq refuses: a secret in the URI, or a parameter that has libpq fetch one, or other
    /// parameters, from somewhere forward.conf does not name (``fetchingKeywords``); a port outside 1–65535, which
    /// libpq would refuse only at each connection; `gssencmode=require`, for cuff-forward's libpq has no GSSAPI
    /// (Sources/CPostgreSQLStatic), and libpq's own words for it at each connection would blame a missing credential cache.
    private static func sslMode(ofURL url: String, reader: SectionReader, line: Int) throws(ConfigurationError) -> SSLMode? {
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") else {
            throw reader.fail(line, "URL must be a postgresql:// connection URI, not \"\(url.prefix(80))\"")
        }
        let given = try parameters(ofURL: url, reader: reader, line: line)
        if given["password"] != nil { throw reader.fail(line, "URL must not hold the password; put it in PasswordFile=") }
        if given["sslpassword"] != nil {
            throw reader.fail(line, "URL must not hold sslpassword, the client key's passphrase: decrypt the key (openssl pkey -in KEY -out KEY.plain) and protect it by its mode or as a systemd credential")
        }
        for keyword in fetchingKeywords where given[keyword] != nil {
            throw reader.fail(line, "URL must not name a \(keyword): libpq would read the password or other parameters from it; write the parameters in the URL and the password in PasswordFile=")
        }
        // A list of ports for a list of hosts (§34.1.1.3); an empty one is the default, 5432.
        if let ports = given["port"], !ports.split(separator: ",", omittingEmptySubsequences: false).allSatisfy({ $0.isEmpty || PortNumber.parse($0) != nil }) {
            throw reader.fail(line, "URL: the port must be 1–65535, not \"\(ports.prefix(40))\"")
        }
        if given["gssencmode"] == "require" {
            throw reader.fail(line, "URL asks for GSSAPI encryption (gssencmode=require), which cuff-forward is built without; TLS is SSLMode=")
        }
        guard let text = given["sslmode"] else { return nil }
        guard let mode = SSLMode(rawValue: text) else { throw reader.fail(line, "URL: sslmode \"\(text)\" is not one libpq knows") }
        return mode
    }

    /// libpq's parameters that take parameters or the password from a file or server of their own (§34.1.2): `passfile`
    /// (a password file, §34.16) and `service` (a connection service file, §34.17, which may also ask LDAP, §34.18).
    /// Secrets come from the files forward.conf names, systemd's credentials among them, and from nowhere else.
    private static let fetchingKeywords = ["passfile", "service"]

    /// The parameters the URI sets, as libpq parses it.
    private static func parameters(ofURL url: String, reader: SectionReader, line: Int) throws(ConfigurationError) -> [String: String] {
        var problem: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &problem) else {
            let why = problem.map { String(cString: $0).trimmingWhitespace() } ?? "not a connection URI"
            PQfreemem(problem)
            throw reader.fail(line, "URL: \(why)")
        }
        defer { PQconninfoFree(options) }
        var given: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { given[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return given
    }
}
