import Foundation
import INIConfiguration

/// How to reach the central PostgreSQL: the configuration turned into libpq's connection parameters
/// (PostgreSQL 15 documentation §34.1.2, "Parameter Key Words"), the password read from its file at each
/// connection so that a rotated credential is picked up.
struct CentralServer: Sendable {
    let configuration: ForwardConfiguration

    /// The password file's first line; nil when the configuration names none.
    func password() throws(ConfigurationError) -> String? {
        guard let path = configuration.passwordFile else { return nil }
        do {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            return String(text.prefix { !$0.isNewline })
        } catch {
            throw ConfigurationError(file: path, line: 0, message: "the password cannot be read: \(error.localizedDescription)")
        }
    }

    /// Opens a session. `dbname` carries the URI (expanded by libpq); the keywords after it override it.
    func connect() throws -> PostgresConnection {
        var parameters = [
            ("dbname", configuration.url), ("sslmode", configuration.sslMode.rawValue),
            ("application_name", "cuff-forward"), ("connect_timeout", "10"),
        ]
        if let password = try password() { parameters.append(("password", password)) }
        return try PostgresConnection(parameters: parameters)
    }
}
