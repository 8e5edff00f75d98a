import Foundation
import GATTHealth
import GatewayTestSupport
import Testing
@testable import Gateway

/// A spool with no room: every keep fails, and is announced on `keeps`.
actor FullSpool: ReadingSpool {
    struct Full: Error, CustomStringConvertible { var description: String { "the spool's 512 slots are in use" } }
    nonisolated let keeps: AsyncStream<String>
    private let keepsContinuation: AsyncStream<String>.Continuation

    init() { (keeps, keepsContinuation) = AsyncStream.makeStream() }

    func keep(_ reading: Reading) throws {
        keepsContinuation.yield(reading.syncIdentifier)
        throw Full()
    }

    func release(_ syncIdentifier: String) {}
    func kept() -> [Reading] { [] }
}

@Suite("A session whose spool cannot keep readings")
struct SpoolFailureTests {
    static func value(_ systolic: Int32) -> LinkEvent {
        .value(.bloodPressureMeasurement, Fixtures.measurement(systolic: systolic, diastolic: 80, user: 0, time: Fixtures.morning),
               receivedAt: Fixtures.receivedAt)
    }

    @Test("Each reading the spool refuses is announced once, with the spool's error, after the store's refusal; the retries, which try the spool again, say nothing more")
    func refusedOnce() async throws {
        let store = FlakyStore()
        let spool = FullSpool()
        let keeps = EventRecorder(spool.keeps)
        let clock = TestClock()
        let later = LaterEvents()
        let session = CuffSession(
            device: Fixtures.cuff, users: UserDirectory(), store: store, spool: spool, retry: RetryBackoff(first: .seconds(1), maximum: .seconds(1)),
            clock: clock, laterEvents: later.receive)

        let first = await session.handle(Self.value(120))
        guard first.count == 2, case .storeFailed = first[0], case let .spoolRefused(reading, reason) = first[1] else {
            Issue.record("\(first)"); return
        }
        #expect(reading.payload == Fixtures.measurement(systolic: 120, diastolic: 80, user: 0, time: Fixtures.morning))
        #expect(reason == "the spool's 512 slots are in use")
        let second = await session.handle(Self.value(121))
        guard second.count == 1, case let .spoolRefused(secondReading, _) = second[0] else { Issue.record("\(second)"); return }
        #expect(secondReading.syncIdentifier != reading.syncIdentifier)

        // Three retries, each of which tries the spool again for both readings (after the two tries above); the third
        // has done so once the fourth is scheduled.
        for _ in 0 ..< 3 { await clock.advanceToNextDeadline() }
        await clock.sleepers(count: 1)
        try await keeps.recorded(moreThan: 7)
        #expect(keeps.all.count == 8)
        await store.recover()
        await clock.advanceToNextDeadline()
        _ = try await later.recorder.next { if case .storeRecovered = $0 { true } else { false } }
        let announced = later.recorder.all
        #expect(!announced.contains { if case .spoolRefused = $0 { true } else { false } }, "\(announced)")
        #expect(announced.filter { if case .readingStored = $0 { true } else { false } }.count == 2)
        #expect(await session.pending.isEmpty)
    }
}
