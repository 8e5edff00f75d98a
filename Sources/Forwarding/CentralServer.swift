/// How to reach the central PostgreSQL: the configuration turned into libpq's connection parameters
/// (PostgreSQL 15 documentation §34.1.2, "Parameter Key Words"), the password read from its file at each
/// connection (``PasswordFile``).
struct CentralServer: Sendable {
    let settings: PostgreSQLSettings

    /// Opens a session. `dbname` carries the URI (expanded by libpq); the keywords after it override it, and it
    /// overrides those before it.
    ///
    /// GSSAPI encryption (§34.1.2 `gssencmode`) only where the URI asks for it: libpq's default, `prefer`, tries it
    /// before TLS whenever Kerberos credentials could be had — asking Kerberos for them at each TCP connection, which
    /// keeps 0.5 MiB of Kerberos's libraries resident (Benchmarks/RESULTS.md, "cuff-forward's idle RSS") — and a session
    /// it encrypts is not the TLS session `SSLMode=` asks for. GSSAPI authentication, inside TLS, is unaffected.
    func connect() throws -> PostgresConnection {
        var parameters = [
            ("gssencmode", "disable"), ("dbname", settings.url), ("sslmode", settings.sslMode.rawValue),
            ("application_name", "cuff-forward"), ("connect_timeout", "10"),
        ]
        if let path = settings.passwordFile { parameters.append(("password", try PasswordFile.read(path))) }
        return try PostgresConnection(parameters: parameters)
    }
}
