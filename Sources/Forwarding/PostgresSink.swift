import ForwardingStatus

/// The central PostgreSQL as a ``Sink``: each page one transaction (``CentralWriter``), acknowledged by COMMIT; a
/// new session's schema version and gateway registration checked before anything is written (docs/forwarding.md).
final class PostgresSink: Sink {
    let name = "PostgreSQL"
    let waitingState = ForwardStatus.State.waitingForPostgreSQL
    private let server: CentralServer
    private let writer: CentralWriter
    private var database: PostgresConnection?

    init(settings: PostgreSQLSettings, gateway: String) {
        server = CentralServer(settings: settings)
        writer = CentralWriter(gateway: gateway)
    }

    func ready() throws -> String? {
        guard database == nil else { return nil }
        let database = try connected()
        return "PostgreSQL (\(database.usesTLS ? "TLS" : "not encrypted"))"
    }

    func deliver(_ page: ChangePage) throws {
        let database = try connected()
        try unlessUnreachable { try writer.apply(page, to: database) }
    }

    /// The open session, or a new one whose schema and registration are checked before anything is written.
    private func connected() throws -> PostgresConnection {
        if let database { return database }
        let database = try unlessUnreachable { try server.connect() }
        try unlessUnreachable { try CentralSchema.check(database) }
        try unlessUnreachable { try GatewayRegistration.check(writer.gateway, database) }
        self.database = database
        return database
    }

    /// Runs `body`; a lost connection or a refused login becomes ``SinkUnreachable``, and the session is dropped.
    private func unlessUnreachable<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError where error.connectionLost || error.isAuthorizationFailure {
            database = nil
            throw SinkUnreachable(underlying: error)
        }
    }
}
