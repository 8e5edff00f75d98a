import DBus
import DurableFiles
import FoundationEssentials
import Synchronization

/// Forwards every reading — and every heart-rate sample, when the sink takes them — of cuffd's store to one ``Sink``,
/// at least once, each sink with an anchor of its own per feed (``FeedKind``, docs/forwarding.md).
///
/// The loop: ask cuffd for the changes after the anchor, hand them to the sink, and only once the sink says the far
/// side has acknowledged them (PostgreSQL's COMMIT, MQTT's PUBACK), store the page's anchor (``AnchorFile``); then
/// the next feed's the same way; then sleep until cuffd signals a new reading or batch of heart-rate samples — and
/// only that feed is read then —, or a change of the cuffs it remembers (which the MQTT sink follows). A
/// crash anywhere re-reads from the last stored anchor, so a page is sent again and never skipped. The far side or
/// cuffd going away is retried with backoff, logged when the state changes; what retrying cannot fix ends the program
/// with a ``ForwardFailure``.
///
/// Unchecked Sendable: a forwarder is handed to the one task that runs it, and only that task touches its state.
public final class Forwarder: @unchecked Sendable {
    private let feed: CuffdFeed
    private let sink: any Sink
    private let gateway: String
    /// The feeds the sink takes, readings first, each with its anchor file and the anchor it holds.
    private var followed: [(kind: FeedKind, file: AnchorFile, anchor: UInt64)]
    private let log: ForwardLog
    private let doorbell: Doorbell
    /// The feeds cuffd's signals asked to be read since the loop last looked.
    private let wanted = WantedFeeds()
    private var backoff = Backoff()
    private var report: StatusReport?

    /// `anchorPath` is the readings' anchor file; the other feeds' are beside it (``FeedKind/anchorPath(besideReadings:)``).
    init(
        sink: any Sink, feeds: [FeedKind], gateway: String, anchorPath: String, connection: DBusConnection, log: ForwardLog,
        doorbell: Doorbell = Doorbell()
    ) {
        feed = CuffdFeed(connection: connection)
        self.sink = sink
        self.gateway = gateway
        followed = feeds.map { ($0, AnchorFile(path: $0.anchorPath(besideReadings: anchorPath)), 0) }
        self.log = log
        self.doorbell = doorbell
    }

    /// The readings' anchor file, which the status file is kept beside.
    private var readingsAnchorPath: String { followed[0].file.path }

    /// Forwards until a failure that retrying cannot fix, which it throws as a ``ForwardFailure``.
    public func run() async throws(ForwardFailure) -> Never {
        do {
            for index in followed.indices { followed[index].anchor = try followed[index].file.read() }
            report = StatusReport(gateway: gateway, anchor: followed[0].anchor, anchorPath: readingsAnchorPath, log: log)
            let wakeups = try await feed.wakeups()
            Task { [doorbell, wanted] in
                for await signal in wakeups {
                    let kinds = CuffdFeed.wakes(signal)
                    guard !kinds.isEmpty else { continue }
                    wanted.add(kinds)
                    doorbell.ring()
                }
                doorbell.ring()  // the bus closed: the next call says so
            }
            for (kind, _, anchor) in followed {
                log.log(.info, "forwarding gateway \(gateway)'s \(kind.noun) to \(sink.name) from anchor \(anchor)")
            }
            while true { try await step() }
        } catch {
            throw ForwardFailure(error)
        }
    }

    /// One turn of the loop: forward what there is and sleep, or wait out one failure. Each feed a signal asked for is
    /// read — every one after a ring without a signal (the start, a retry, the sink's own) —, each to its end.
    private func step() async throws {
        let asked = wanted.take()
        var pages = 0
        do {
            for index in followed.indices where asked.isEmpty || asked.contains(followed[index].kind) {
                pages += try await drain(index)
            }
            // After a backlog of more than one page, what the sink grew for it and the memory it freed are handed back
            // before the loop sleeps.
            if pages > 1 {
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
            case .anchorExpired(let kind):
                log.log(.warning, "\(error): reading the whole store again (sync identifiers make that harmless)")
                if let index = followed.firstIndex(where: { $0.kind == kind }) { followed[index].anchor = 0 }
            case .notAuthorized, .busLost, .malformed:
                throw error
            }
        } catch let error as SinkUnreachable {
            log.state(sink.name, "down", .warning, "\(sink.name) is unreachable: \(error); retrying with backoff, nothing is lost")
            report?.set(sink.waitingState, error: error)
            try? await Task.sleep(for: backoff.delay())
        }
    }

    /// Pages of the feed `followed[index]` until cuffd has nothing more: each delivered and acknowledged, then its
    /// anchor stored. cuffd is asked first, so that a refusal shows whatever the sink's state; the sink is made ready
    /// even for an empty page, so that a wrong password or a missing schema shows at start, not with the first
    /// reading. While the far side acknowledges a page, the next one is already asked of cuffd: a backlog waits for
    /// the slower of the two, not for both in turn. Pages are still delivered one after the other, and an anchor
    /// stored only after its own. Returns how many pages it forwarded.
    private func drain(_ index: Int) async throws -> Int {
        let (kind, anchorFile, _) = followed[index]
        var page = try await feed.page(kind, after: followed[index].anchor)
        var pages = 0
        while true {
            log.state("cuffd", "up", .info, "following cuffd's change feed")
            if let connected = try await sink.ready() { log.state(sink.name, "up", .info, "connected to \(connected)") }
            let next = page.more ? Task { [feed, after = page.anchor] in try await feed.page(kind, after: after) } : nil
            defer { next?.cancel() }
            let othersReadings = page.isEmpty ? 0 : try await sink.deliver(page)
            if page.anchor != followed[index].anchor {
                try anchorFile.write(page.anchor)
                followed[index].anchor = page.anchor
                if kind == .readings {
                    report?.acknowledged(anchor: page.anchor, last: page.readings.last, othersReadings: othersReadings)
                }
            }
            if !page.isEmpty {
                pages += 1
                let anchorName = kind == .readings ? "anchor" : "heart-rate anchor"
                log.log(.info, "forwarded \(page.count) \(kind.noun) and \(page.deleted.count) deletions to \(sink.name); \(anchorName) \(page.anchor)")
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
    /// status file in a folder checked first (``StateFolder``), all reading the same change feed through `connection`.
    /// Sets glibc's allocator to give large blocks back as soon as they are freed (``FreedMemory/returnLargeBlocksAtOnce()``).
    public static func all(_ configuration: ForwardConfiguration, connection: DBusConnection, log: ForwardLog) throws -> [Forwarder] {
        FreedMemory.returnLargeBlocksAtOnce()
        var forwarders: [Forwarder] = []
        if let settings = configuration.postgreSQL {
            try StateFolder.prepare(parentFolder(of: configuration.statePath), make: false)
            let sink = PostgresSink(settings: settings, gateway: configuration.gateway)
            forwarders.append(Forwarder(
                sink: sink, feeds: [.readings, .heartRates], gateway: configuration.gateway, anchorPath: configuration.statePath,
                connection: connection, log: log))
        }
        if let settings = configuration.mqtt {
            // The MQTT sink's folder (mqtt/ beside the PostgreSQL anchor by default) is made on first start.
            try StateFolder.prepare(parentFolder(of: settings.statePath), make: true)
            let doorbell = Doorbell()
            let sink = try MQTTSink(settings: settings, feed: CuffdFeed(connection: connection), log: log, doorbell: doorbell)
            forwarders.append(Forwarder(
                sink: sink, feeds: [.readings, .heartRates], gateway: configuration.gateway, anchorPath: settings.statePath, connection: connection,
                log: log, doorbell: doorbell))
        }
        return forwarders
    }
}

/// The feeds cuffd's signals asked to be read: added to by the task that receives the signals, taken by the loop.
private final class WantedFeeds: Sendable {
    private let kinds = Mutex(Set<FeedKind>())

    func add(_ more: Set<FeedKind>) { kinds.withLock { $0.formUnion(more) } }

    /// The feeds asked for since the last take, clearing them.
    func take() -> Set<FeedKind> {
        kinds.withLock { kinds in
            defer { kinds = [] }
            return kinds
        }
    }
}
