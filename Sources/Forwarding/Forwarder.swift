import DBus
import DurableFiles
import FoundationEssentials
import Glibc

/// Forwards every reading of cuffd's store to one ``Sink``, at least once, each sink with an anchor of its own
/// (docs/forwarding.md).
///
/// The loop: ask cuffd for the changes after the anchor, hand them to the sink, and only once the sink says the far
/// side has acknowledged them (PostgreSQL's COMMIT, MQTT's PUBACK), store the page's anchor (``AnchorFile``); then
/// sleep until cuffd signals a new reading, or a change of the cuffs it remembers (which the MQTT sink follows). A
/// crash anywhere re-reads from the last stored anchor, so a page is sent again and never skipped. The far side or
/// cuffd going away is retried with backoff, logged when the state changes; what retrying cannot fix ends the program
/// with a ``ForwardFailure``.
///
/// Unchecked Sendable: a forwarder is handed to the one task that runs it, and only that task touches its state.
public final class Forwarder: @unchecked Sendable {
    private let feed: CuffdFeed
    private let sink: any Sink
    private let gateway: String
    private let anchorFile: AnchorFile
    private let log: ForwardLog
    private let doorbell: Doorbell
    private var anchor: UInt64 = 0
    private var backoff = Backoff()
    private var report: StatusReport?

    init(sink: any Sink, gateway: String, anchorPath: String, connection: DBusConnection, log: ForwardLog, doorbell: Doorbell = Doorbell()) {
        feed = CuffdFeed(connection: connection)
        self.sink = sink
        self.gateway = gateway
        anchorFile = AnchorFile(path: anchorPath)
        self.log = log
        self.doorbell = doorbell
    }

    /// Forwards until a failure that retrying cannot fix, which it throws as a ``ForwardFailure``.
    public func run() async throws(ForwardFailure) -> Never {
        do {
            anchor = try anchorFile.read()
            report = StatusReport(gateway: gateway, anchor: anchor, anchorPath: anchorFile.path, log: log)
            let wakeups = try await feed.wakeups()
            Task { [doorbell] in
                for await signal in wakeups where CuffdFeed.isWakeup(signal) { doorbell.ring() }
                doorbell.ring()  // the bus closed: the next call says so
            }
            log.log(.info, "forwarding gateway \(gateway)'s readings to \(sink.name) from anchor \(anchor)")
            while true { try await step() }
        } catch {
            throw ForwardFailure(error)
        }
    }

    /// One turn of the loop: forward what there is and sleep, or wait out one failure.
    private func step() async throws {
        do {
            // After a backlog of more than one page, what the sink grew for it and the memory it freed are handed back
            // before the loop sleeps.
            if try await drain() > 1 {
                try await sink.backlogDelivered()
                FreedMemory.release()
            }
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
        } catch let error as SinkUnreachable {
            log.state(sink.name, "down", .warning, "\(sink.name) is unreachable: \(error); retrying with backoff, nothing is lost")
            report?.set(sink.waitingState, error: error)
            try? await Task.sleep(for: backoff.delay())
        }
    }

    /// Pages until cuffd has nothing more: each delivered and acknowledged, then its anchor stored. cuffd is asked
    /// first, so that a refusal shows whatever the sink's state; the sink is made ready even for an empty page, so
    /// that a wrong password or a missing schema shows at start, not with the first reading. While the far side
    /// acknowledges a page, the next one is already asked of cuffd: a backlog waits for the slower of the two, not
    /// for both in turn. Pages are still delivered one after the other, and an anchor stored only after its own.
    /// Returns how many pages it forwarded.
    private func drain() async throws -> Int {
        var page = try await feed.page(after: anchor)
        var pages = 0
        while true {
            log.state("cuffd", "up", .info, "following cuffd's change feed")
            if let connected = try await sink.ready() { log.state(sink.name, "up", .info, "connected to \(connected)") }
            let next = page.more ? Task { [feed, after = page.anchor] in try await feed.page(after: after) } : nil
            defer { next?.cancel() }
            let othersReadings = page.isEmpty ? 0 : try await sink.deliver(page)
            if page.anchor != anchor {
                try anchorFile.write(page.anchor)
                anchor = page.anchor
                report?.acknowledged(anchor: anchor, last: page.readings.last, othersReadings: othersReadings)
            }
            if !page.isEmpty {
                pages += 1
                log.log(.info, "forwarded \(page.readings.count) readings and \(page.deleted.count) deletions to \(sink.name); anchor \(anchor)")
                if othersReadings > 0 {
                    log.log(.notice, "\(othersReadings) of them another gateway had forwarded first (a cuff read by both); \(sink.name) keeps that gateway's")
                }
            }
            guard let next else { return pages }
            page = try await next.value
        }
    }
}

extension Forwarder {
    /// A forwarder for each sink forward.conf configures — PostgreSQL, MQTT, or both —, each with its own anchor and
    /// status file, all reading the same change feed through `connection`. Sets glibc's allocator to give large blocks
    /// back as soon as they are freed (``FreedMemory/returnLargeBlocksAtOnce()``).
    public static func all(_ configuration: ForwardConfiguration, connection: DBusConnection, log: ForwardLog) throws -> [Forwarder] {
        FreedMemory.returnLargeBlocksAtOnce()
        var forwarders: [Forwarder] = []
        if let settings = configuration.postgreSQL {
            let sink = PostgresSink(settings: settings, gateway: configuration.gateway)
            forwarders.append(Forwarder(sink: sink, gateway: configuration.gateway, anchorPath: configuration.statePath, connection: connection, log: log))
        }
        if let settings = configuration.mqtt {
            // The MQTT sink's folder (mqtt/ beside the PostgreSQL anchor by default) is made on first start.
            let folder = parentFolder(of: settings.statePath)
            if mkdir(folder, 0o700) != 0, errno != EEXIST {
                throw DurableFileError(path: folder, problem: "cannot be made", code: errno)
            }
            let doorbell = Doorbell()
            let sink = try MQTTSink(settings: settings, feed: CuffdFeed(connection: connection), log: log, doorbell: doorbell)
            forwarders.append(
                Forwarder(sink: sink, gateway: configuration.gateway, anchorPath: settings.statePath, connection: connection, log: log, doorbell: doorbell))
        }
        return forwarders
    }
}
