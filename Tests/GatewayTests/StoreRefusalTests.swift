import Foundation
import GATTHealth
import GatewayTestSupport
import Testing
@testable import Gateway

/// A store whose commits wait until the test lets them through, one at a time: the await inside a session's
/// commit, where other calls to the actor run.
actor GatedStore: ReadingStore {
    let inner = InMemoryReadingStore()
    private(set) var commits: [String] = []
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// Who waits for a commit to wait.
    private var watchers: [CheckedContinuation<Void, Never>] = []

    func commit(_ reading: Reading) async throws -> CommitOutcome {
        commits.append(reading.syncIdentifier)
        await withCheckedContinuation { continuation in
            waiting.append(continuation)
            for watcher in watchers { watcher.resume() }
            watchers.removeAll()
        }
        return await inner.commit(reading)
    }

    func commit(heartRates samples: [HeartRateSample]) async throws -> Int {
        await inner.commit(heartRates: samples)
    }

    /// Returns once a commit waits to be let through.
    func commitWaiting() async {
        guard waiting.isEmpty else { return }
        await withCheckedContinuation { watchers.append($0) }
    }

    /// Lets `count` commits through, one at a time, each as soon as it waits.
    func letThrough(_ count: Int) async {
        for _ in 0 ..< count {
            await commitWaiting()
            waiting.removeFirst().resume()
        }
    }
}

/// A spool in memory, counting what it was asked to keep.
actor MemorySpool: ReadingSpool {
    private(set) var readings: [Reading] = []
    private(set) var keeps = 0

    init(_ readings: [Reading] = []) { self.readings = readings }

    func keep(_ reading: Reading) throws {
        keeps += 1
        if !readings.contains(where: { $0.syncIdentifier == reading.syncIdentifier }) { readings.append(reading) }
    }

    func release(_ syncIdentifier: String) { readings.removeAll { $0.syncIdentifier == syncIdentifier } }
    func kept() -> [Reading] { readings }
}

@Suite("A session while the store waits or refuses")
struct StoreRefusalTests {
    func value(_ bytes: [UInt8]) -> LinkEvent {
        .value(.bloodPressureMeasurement, bytes, receivedAt: Fixtures.receivedAt)
    }

    static let readings: [[UInt8]] = (0 ..< 3).map { n in
        Fixtures.measurement(systolic: 120 + Int32(n), diastolic: 80, user: 0, time: Fixtures.morning)
    }

    @Test("Values handled while a commit awaits the store: each committed once, in order, none lost, no trap")
    func overlappingHandles() async {
        let store = GatedStore()
        let session = CuffSession(device: Fixtures.cuff, users: UserDirectory(), store: store)
        async let first = session.handle(value(Self.readings[0]))
        await store.commitWaiting()
        // The first commit is suspended; two more values arrive meanwhile.
        async let second = session.handle(value(Self.readings[1]))
        async let third = session.handle(value(Self.readings[2]))
        await store.letThrough(3)
        let produced = await first + second + third
        let stored = produced.compactMap { event -> UInt16? in
            if case let .readingStored(reading, .stored) = event { return UInt16(reading.systolic.doubleValue) }
            return nil
        }
        #expect(stored == [120, 121, 122])
        #expect(await store.commits.count == 3, "each reading committed exactly once")
        #expect(await store.inner.readings.count == 3)
        #expect(await session.pending.isEmpty)
    }

    @Test("Held values drained by identify while a value arrives: each committed once")
    func identifyOverlappingHandle() async {
        let store = GatedStore()
        let session = CuffSession(device: Fixtures.cuff, users: UserDirectory(), store: store, identified: false)
        await session.handle(value(Self.readings[0]))
        await session.handle(value(Self.readings[1]))
        async let identified = session.identify(Fixtures.cuff)
        await store.commitWaiting()
        async let late = session.handle(value(Self.readings[2]))
        await store.letThrough(3)
        _ = await identified + late
        #expect(await store.commits.count == 3)
        #expect(Set(await store.inner.readings.map { $0.syncIdentifier }).count == 3)
        #expect(await session.pending.isEmpty)
    }

    @Test("While the store refuses: one event when it starts, one when it ends; the timer commits without a new value")
    func refusalAndRecovery() async throws {
        let store = FlakyStore()
        let spool = MemorySpool()
        let clock = TestClock()
        let later = LaterEvents()
        let session = CuffSession(
            device: Fixtures.cuff, users: UserDirectory(), store: store, spool: spool,
            retry: RetryBackoff(first: .seconds(20), maximum: .seconds(40)), clock: clock, laterEvents: later.receive)
        var produced: [SessionEvent] = []
        for bytes in Self.readings { produced += await session.handle(value(bytes)) }
        let failures = produced.filter { if case .storeFailed = $0 { true } else { false } }
        #expect(failures.count == 1, "\(produced)")
        #expect(await session.pending.count == 3)
        #expect(await spool.readings.count == 3, "every refused reading is in the spool")
        var delays: [Duration] = []
        for _ in 0 ..< 3 { delays.append(await clock.advanceToNextDeadline()) }
        // Each retry has failed once the next is scheduled.
        await clock.sleepers(count: 1)
        #expect(delays == [.seconds(20), .seconds(40), .seconds(40)], "backoff, doubling up to its maximum")
        #expect(await store.attempts == 4, "one try when the first reading came, one per retry")
        #expect(later.recorder.all.isEmpty, "retries while the store still refuses say nothing")
        await store.recover()
        await clock.advanceToNextDeadline()
        _ = try await later.recorder.next { if case .storeRecovered = $0 { true } else { false } }
        #expect(await store.inner.readings.count == 3)
        #expect(await session.pending.isEmpty)
        #expect(await spool.readings.isEmpty, "committed readings leave the spool")
        let after = later.recorder.all
        #expect(after.filter { if case .readingStored = $0 { true } else { false } }.count == 3)
        guard case .storeRecovered(committed: 3)? = after.last else { Issue.record("\(after)"); return }
    }

    @Test("At most pendingLimit readings wait; more are turned away, named in an event")
    func pendingIsBounded() async {
        let session = CuffSession(
            device: Fixtures.cuff, users: UserDirectory(), store: FlakyStore(), retry: RetryBackoff(first: .seconds(3600)), pendingLimit: 2)
        var produced: [SessionEvent] = []
        for bytes in Self.readings { produced += await session.handle(value(bytes)) }
        #expect(await session.pending.count == 2)
        guard case let .readingDropped(reading, waiting)? = produced.last else { Issue.record("\(produced)"); return }
        #expect(waiting == 2)
        #expect(reading.payload == Self.readings[2])
    }

    @Test("Backoff doubles up to its maximum")
    func backoff() {
        let retry = RetryBackoff(first: .seconds(1), maximum: .seconds(60))
        #expect((1 ... 8).map(retry.delay(before:)) == [1, 2, 4, 8, 16, 32, 60, 60].map(Duration.seconds))
    }
}

@Suite("Readings an earlier run kept in the spool")
struct SpoolRecoveryTests {
    @Test("At start the Gateway commits them, announces each as its cuff's stored reading, and empties the spool")
    func recoveredAtStart() async throws {
        let spooled = Reading(
            device: Fixtures.cuff, userID: 0, person: nil, unit: .millimetresOfMercury, systolic: MedFloat16(mantissa: 133, exponent: 0)!,
            diastolic: MedFloat16(mantissa: 85, exponent: 0)!, meanArterialPressure: nil, pulseRate: nil, status: nil,
            deviceTime: Fixtures.morning, receivedAt: Fixtures.receivedAt, payload: [0x00, 0x85, 0x00])
        let spool = MemorySpool([spooled])
        let rig = try await EmbeddedGateway.start([], spool: spool)
        let announced = try await rig.next { if case .session(_, .readingStored) = $0 { true } else { false } }
        guard case let .session(address, .readingStored(reading, .stored)) = announced else { Issue.record("\(announced)"); return }
        #expect(address == Fixtures.cuff.address && reading.syncIdentifier == spooled.syncIdentifier)
        #expect(await rig.store.readings.map(\.syncIdentifier) == [spooled.syncIdentifier])
        #expect(await spool.readings.isEmpty)
        await rig.stop()
    }

    @Test("While the store still refuses them, the Gateway says so once and tries again on its backoff")
    func retriedWhileRefused() async throws {
        let spooled = (0 ..< 2).map { n in
            Reading(
                device: Fixtures.cuff, userID: 0, person: nil, unit: .millimetresOfMercury, systolic: MedFloat16(mantissa: 130 + n, exponent: 0)!,
                diastolic: MedFloat16(mantissa: 85, exponent: 0)!, meanArterialPressure: nil, pulseRate: nil, status: nil,
                deviceTime: Fixtures.morning, receivedAt: Fixtures.receivedAt, payload: [0x00, UInt8(n), 0x00])
        }
        let spool = MemorySpool(spooled)
        let store = FlakyStore()
        var configuration = GatewayConfiguration()
        configuration.storeRetry = RetryBackoff(first: .seconds(1), maximum: .seconds(4))
        let central = EmbeddedCentral()
        let clock = TestClock()
        let gateway = CuffGateway(bluetooth: central, store: store, configuration: configuration, spool: spool, clock: clock)
        let events = EventRecorder(await gateway.events())
        try await gateway.start()
        let problem = try await events.next { if case .problem = $0 { true } else { false } }
        guard case .problem(_, let text) = problem else { return }
        #expect(text == "readings kept while the store refused still wait for it: disk full")
        #expect(await clock.advanceToNextDeadline() == .seconds(1))
        #expect(await clock.advanceToNextDeadline() == .seconds(2))
        // The second retry has failed once the third is scheduled.
        await clock.sleepers(count: 1)
        await store.recover()
        await clock.advanceToNextDeadline()
        _ = try await events.next { if case .session(_, .readingStored(let reading, _)) = $0 { reading.syncIdentifier == spooled[1].syncIdentifier } else { false } }
        #expect(await store.inner.readings.map(\.syncIdentifier) == spooled.map(\.syncIdentifier))
        #expect(await spool.readings.isEmpty)
        #expect(events.all.filter { if case .problem = $0 { true } else { false } }.count == 1)
        await gateway.stop()
    }
}
