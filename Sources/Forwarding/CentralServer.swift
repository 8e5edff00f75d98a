/// How to reach the central PostgreSQL: the configuration turned into libpq's connection parameters
/// (PostgreSQL 15 documentation §34.1.2, "Parameter Key Words"), the password read from its file at each
/// connection (``PasswordFile``).
struct CentralServer: Sendable {
    let settings: PostgreSQLSettings

    /// Opens a session. `dbname` carries the URI (expanded by libpq); the keywords after it override it.
    func connect() throws -> PostgresConnection {
        var parameters = [
            ("dbname", settings.url), ("sslmode", settings.sslMode.rawValue),
            ("application_name", "cuff-forward"), ("connect_timeout", "10"),
        ]
        if let file = settings.passwordFile { parameters.append(("password", try file.read())) }
        return try PostgresConnection(parameters: parameters)
    }
}
