import Dispatch
import ForwardingStatus

/// The central PostgreSQL as a ``Sink``: each page one transaction (``CentralWriter`` for readings, ``HeartRateWriter``
/// for heart-rate samples), acknowledged by COMMIT; a new session's schema version and gateway registration checked,
/// and its page tables made, before anything is written (docs/forwarding.md).
///
/// libpq's calls block until the server answers, so they run on a queue of their own: the forwarder's loop stays
/// free meanwhile to ask cuffd for the next page and decode it while PostgreSQL writes this one. Unchecked
/// Sendable: the sink's state (``database``) is touched only on that queue, one call at a time.
final class PostgresSink: Sink, @unchecked Sendable {
    let name = "PostgreSQL"
    let waitingState = ForwardStatus.State.waitingForPostgreSQL
    private let server: CentralServer
    private let writer: CentralWriter
    private let heartRateWriter: HeartRateWriter
    private var database: PostgresConnection?
    private let queue = DispatchQueue(label: "cuff-forward.postgresql")

    init(settings: PostgreSQLSettings, gateway: String) {
        server = CentralServer(settings: settings)
        writer = CentralWriter(gateway: gateway)
        heartRateWriter = HeartRateWriter(gateway: gateway)
    }

    func ready() async throws -> String? {
        try await onQueue { [self] in
            guard database == nil else { return nil }
            let database = try connected()
            return "PostgreSQL (\(database.usesTLS ? "TLS" : "not encrypted"))"
        }
    }

    func deliver(_ page: ChangePage) async throws -> Int {
        try await onQueue { [self] in
            let database = try connected()
            return try unlessUnreachable {
                switch page.kind {
                case .readings: return try writer.apply(page, to: database)
                case .heartRates:
                    try heartRateWriter.apply(page, to: database)
                    return 0
                }
            }
        }
    }

    /// A new session for the old one: libpq enlarges a session's output buffer to the largest message it has sent — a
    /// page of 10 000 readings' parameters, 2 MiB — and keeps it until the session ends (it has no call to shrink it),
    /// 1.3 MiB of it resident while cuff-forward then sleeps (Benchmarks/RESULTS.md, "cuff-forward's idle RSS").
    /// Connected again at once, its schema and registration checked, so that an idle forwarder holds a session as
    /// before; a failure is the next page's, retried with backoff.
    func backlogDelivered() async throws {
        try await onQueue { [self] in
            database = nil
            _ = try connected()
        }
    }

    /// `body` on the sink's queue, awaited.
    private func onQueue<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// The open session, or a new one whose schema and registration are checked, and its page tables made, before
    /// anything is written.
    private func connected() throws -> PostgresConnection {
        if let database { return database }
        let database = try unlessUnreachable { try server.connect() }
        try unlessUnreachable { try CentralSchema.check(database) }
        try unlessUnreachable { try GatewayRegistration.check(writer.gateway, database) }
        try unlessUnreachable { try CentralPage.prepare(database) }
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
