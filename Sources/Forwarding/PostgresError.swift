/// A failure PostgreSQL or libpq reported: the server's message, and the SQLSTATE when the server sent one
/// (PostgreSQL 15 documentation, Appendix A "PostgreSQL Error Codes"; libpq `PQresultErrorField` with
/// `PG_DIAG_SQLSTATE`, §34.3.1).
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public let message: String
    /// Five characters, such as `42P01` (undefined table); nil when libpq failed before the server answered.
    public let sqlState: String?
    /// Whether the connection is gone (`PQstatus` is `CONNECTION_BAD`, §34.2, or the SQLSTATE says the server ended the
    /// session, ``endsSession(_:)``): reconnect and try again.
    public let connectionLost: Bool

    public var description: String { sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message }

    /// SQLSTATE 42P01: the table does not exist.
    static let undefinedTable = "42P01"
    /// SQLSTATE 23505: a row with the same key is there already.
    static let uniqueViolation = "23505"
    /// SQLSTATE 42501: the role may not do that.
    static let insufficientPrivilege = "42501"
    /// SQLSTATE class 28: invalid authorization (a wrong password, an unknown role).
    var isAuthorizationFailure: Bool { sqlState?.hasPrefix("28") == true }

    /// Whether `sqlState` says the server ended the session — class 08 (connection exception), 57P01 (an administrator's
    /// `pg_terminate_backend` or a fast shutdown), 57P02 (a crash of another backend), 57P03 (not accepting
    /// connections yet) —, which libpq reports in the failed command's result before it marks the connection bad: such
    /// a failure is a lost connection, retried on a new session, not a refusal of what was sent.
    static func endsSession(_ sqlState: String?) -> Bool {
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }
}
