import GATTHealth
import GatewayTestSupport
import Testing
@testable import Gateway

/// A store with room for a given number of readings: it refuses, as a full disk does, once they are in.
actor RoomForReadings: ReadingStore {
    let inner = InMemoryReadingStore()
    private var room: Int

    init(room: Int = 0) { self.room = room }

    struct DiskFull: Error, CustomStringConvertible { var description: String { "disk full" } }

    func commit(_ reading: Reading) async throws -> CommitOutcome {
        guard room > 0 else { throw DiskFull() }
        room -= 1
        return await inner.commit(reading)
    }

    func commit(heartRates samples: [HeartRateSample]) async throws -> Int {
        throw DiskFull()
    }

    /// Space freed for `count` more readings.
    func free(_ count: Int) { room += count }
}

@Suite("A store that refuses again after taking some readings", .timeLimit(.minutes(1)))
struct StoreRefusesAgainTests {
    static let readings: [[UInt8]] = (0 ..< 4).map { n in
        Fixtures.measurement(systolic: 120 + Int32(n), diastolic: 80, user: 0, time: Fixtures.morning)
    }

    @Test("A retry that commits some and is refused again: the refusal ends with what went in, and the new one is said")
    func eachStopIsAnEvent() async throws {
        let store = RoomForReadings()
        let clock = TestClock()
        let later = LaterEvents()
        let session = CuffSession(
            device: Fixtures.cuff, users: UserDirectory(), store: store, retry: RetryBackoff(first: .seconds(1)), clock: clock,
            laterEvents: later.receive)
        var produced: [SessionEvent] = []
        for bytes in Self.readings {
            produced += await session.handle(.value(.bloodPressureMeasurement, bytes, receivedAt: Fixtures.receivedAt))
        }
        #expect(produced.filter { if case .storeFailed = $0 { true } else { false } }.count == 1, "\(produced)")
        await store.free(2)
        await clock.advanceToNextDeadline()
        guard case let .storeFailed(refused, _, waiting) = try await later.recorder.next(where: { if case .storeFailed = $0 { true } else { false } }) else {
            return
        }
        #expect(waiting == 2)
        #expect(refused.payload == Self.readings[2])
        let retry = later.recorder.all
        let stored = retry.filter { if case .readingStored = $0 { true } else { false } }
        #expect(stored.count == 2, "\(retry)")
        guard retry.count > 2, case .storeRecovered(committed: 2) = retry[2] else { Issue.record("\(retry)"); return }
        #expect(await session.pending.count == 2)

        // The new refusal retries on its own backoff, from the first delay.
        await store.free(2)
        #expect(await clock.advanceToNextDeadline() == .seconds(1))
        _ = try await later.recorder.next { if case .storeRecovered(committed: 2) = $0 { true } else { false } }
        #expect(await store.inner.readings.map(\.payload) == Self.readings)
    }

    @Test("Readings of an earlier run: a refusal after some went in is a problem of its own")
    func spooledReadingsEachStopIsAProblem() async throws {
        let spooled = Self.readings.prefix(3).map { bytes in
            Reading(
                device: Fixtures.cuff, userID: 0, person: nil, unit: .millimetresOfMercury, systolic: MedFloat16(mantissa: Int32(bytes[1]), exponent: 0)!,
                diastolic: MedFloat16(mantissa: 80, exponent: 0)!, meanArterialPressure: nil, pulseRate: nil, status: nil,
                deviceTime: Fixtures.morning, receivedAt: Fixtures.receivedAt, payload: bytes)
        }
        let spool = MemorySpool(Array(spooled))
        let store = RoomForReadings()
        var configuration = GatewayConfiguration()
        configuration.storeRetry = RetryBackoff(first: .seconds(1), maximum: .seconds(4))
        let clock = TestClock()
        let gateway = CuffGateway(bluetooth: EmbeddedCentral(), store: store, configuration: configuration, spool: spool, clock: clock)
        let events = EventRecorder(await gateway.events())
        try await gateway.start()
        _ = try await events.next { if case .problem = $0 { true } else { false } }
        await store.free(1)
        #expect(await clock.advanceToNextDeadline() == .seconds(1))
        _ = try await events.next { if case .session(_, .readingStored(let reading, _)) = $0 { reading.payload == Self.readings[0] } else { false } }
        // Refused again: a second problem, and the backoff starts over.
        _ = try await events.next { if case .problem = $0 { true } else { false } }
        #expect(await clock.advanceToNextDeadline() == .seconds(1))
        // That retry has failed once the next is scheduled.
        await clock.sleepers(count: 1)
        await store.free(2)
        #expect(await clock.advanceToNextDeadline() == .seconds(2))
        _ = try await events.next { if case .session(_, .readingStored(let reading, _)) = $0 { reading.payload == Self.readings[2] } else { false } }
        #expect(events.all.filter { if case .problem = $0 { true } else { false } }.count == 2)
        #expect(await spool.readings.isEmpty)
        await gateway.stop()
    }
}
