import DBusTestSupport
import Foundation
import GATTHealth
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
        let keeps = StreamRecorder(spool.keeps)
        let (laterEvents, laterContinuation) = AsyncStream.makeStream(of: SessionEvent.self)
        let later = StreamRecorder(laterEvents)
        let session = CuffSession(
            device: Fixtures.cuff, users: UserDirectory(), store: store, spool: spool, retry: StoreRetry(first: .milliseconds(1), maximum: .milliseconds(1)),
            laterEvents: { events in for event in events { laterContinuation.yield(event) } })

        let first = await session.handle(Self.value(120))
        guard first.count == 2, case .storeFailed = first[0], case let .spoolRefused(reading, reason) = first[1] else {
            Issue.record("\(first)"); return
        }
        #expect(reading.payload == Fixtures.measurement(systolic: 120, diastolic: 80, user: 0, time: Fixtures.morning))
        #expect(reason == "the spool's 512 slots are in use")
        let second = await session.handle(Self.value(121))
        guard second.count == 1, case let .spoolRefused(secondReading, _) = second[0] else { Issue.record("\(second)"); return }
        #expect(secondReading.syncIdentifier != reading.syncIdentifier)

        // Three retries, each of which tries the spool again for both readings (after the two tries above).
        for _ in 0 ..< 8 { _ = try await keeps.next(within: .seconds(30)) { _ in true } }
        await store.recover()
        _ = try await later.next(within: .seconds(30)) { if case .storeRecovered = $0 { true } else { false } }
        let announced = later.all
        #expect(!announced.contains { if case .spoolRefused = $0 { true } else { false } }, "\(announced)")
        #expect(announced.filter { if case .readingStored = $0 { true } else { false } }.count == 2)
        #expect(await session.pending.isEmpty)
    }
}
