import DBus

/// Forwards every reading of cuffd's store to the central PostgreSQL, exactly once in effect (docs/forwarding.md).
///
/// The loop: ask cuffd for the changes after the anchor, write them in one transaction, and only once COMMIT has
/// returned, store the page's anchor (``AnchorFile``); then sleep until cuffd signals a new reading. A crash
/// anywhere re-reads from the last stored anchor, so a page is sent again and never skipped, and sending again
/// changes nothing (``CentralWriter``). PostgreSQL or cuffd going away is retried with backoff, logged when the
/// state changes; what retrying cannot fix ends the program with a ``ForwardFailure``.
public final class Forwarder {
    private let feed: CuffdFeed
    private let server: CentralServer
    private let writer: CentralWriter
    private let anchorFile: AnchorFile
    private let log: ForwardLog
    private let doorbell = Doorbell()
    private var database: PostgresConnection?
    private var anchor: UInt64 = 0
    private var backoff = Backoff()
    private var report: StatusReport?

    public init(configuration: ForwardConfiguration, connection: DBusConnection, log: ForwardLog) {
        feed = CuffdFeed(connection: connection)
        server = CentralServer(configuration: configuration)
        writer = CentralWriter(gateway: configuration.gateway)
        anchorFile = AnchorFile(path: configuration.statePath)
        self.log = log
    }

    /// Forwards until a failure that retrying cannot fix, which it throws as a ``ForwardFailure``.
    public func run() async throws(ForwardFailure) -> Never {
        do {
            anchor = try anchorFile.read()
            report = StatusReport(gateway: writer.gateway, anchor: anchor, anchorPath: anchorFile.path, log: log)
            let wakeups = try await feed.wakeups()
            Task { [doorbell] in
                for await _ in wakeups { doorbell.ring() }
                doorbell.ring()  // the bus closed: the next call says so
            }
            log.log(.info, "forwarding gateway \(writer.gateway)'s readings from anchor \(anchor)")
            while true { try await step() }
        } catch {
            throw ForwardFailure(error)
        }
    }

    /// One turn of the loop: forward what there is and sleep, or wait out one failure.
    private func step() async throws {
        do {
            try await drain()
            backoff.reset()
            report?.set(.forwarding)
            await doorbell.wait()
        } catch let error as FeedError {
            switch error {
            case .cuffdUnavailable:
                log.state("cuffd", "down", .warning, "\(error); forwarding resumes when cuffd is back")
                report?.set(.waitingForCuffd, error: error)
                await doorbell.wait(timeout: backoff.delay())
            case .anchorExpired:
                log.log(.warning, "\(error): reading the whole store again (sync identifiers make that harmless)")
                anchor = 0
            case .notAuthorized, .busLost, .malformed:
                throw error
            }
        } catch let error as PostgresError where error.connectionLost || error.isAuthorizationFailure {
            database = nil
            log.state("postgresql", "down", .warning, "PostgreSQL is unreachable: \(error); retrying with backoff, nothing is lost")
            report?.set(.waitingForPostgreSQL, error: error)
            try? await Task.sleep(for: backoff.delay())
        }
    }

    /// The open session, or a new one whose schema is checked before anything is written.
    private func connected() throws -> PostgresConnection {
        if let database { return database }
        let database = try server.connect()
        try CentralSchema.check(database)
        try GatewayRegistration.check(writer.gateway, database)
        self.database = database
        log.state("postgresql", "up", .info, "connected to PostgreSQL (\(database.usesTLS ? "TLS" : "not encrypted"))")
        return database
    }

    /// Pages until cuffd has nothing more: each written and committed, then its anchor stored. cuffd is asked
    /// first, so that a refusal shows whatever the server's state; the server is reached even for an empty page,
    /// so that a wrong password or a missing schema shows at start, not with the first reading.
    private func drain() async throws {
        while true {
            let page = try await feed.page(after: anchor)
            log.state("cuffd", "up", .info, "following cuffd's change feed")
            let database = try connected()
            if !page.isEmpty { try writer.apply(page, to: database) }
            if page.anchor != anchor {
                try anchorFile.write(page.anchor)
                anchor = page.anchor
                report?.acknowledged(anchor: anchor, last: page.readings.last)
            }
            if !page.isEmpty {
                log.log(.info, "forwarded \(page.readings.count) readings and \(page.deleted.count) deletions; anchor \(anchor)")
            }
            guard page.more else { return }
        }
    }
}
