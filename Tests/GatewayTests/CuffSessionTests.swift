import FoundationEssentials
import GATTHealth
import GatewayTestSupport
import Testing
@testable import Gateway

@Suite("Cuff sessions")
struct CuffSessionTests {
    func value(_ characteristic: HealthCharacteristic, _ bytes: [UInt8]) -> LinkEvent {
        .value(characteristic, bytes, receivedAt: Fixtures.receivedAt)
    }

    @Test func aMeasurementWithProgressEndsInOneStoredReading() async {
        let store = InMemoryReadingStore()
        let session = CuffSession(device: Fixtures.cuff, users: UserDirectory(), store: store)
        await session.handle(.connecting)
        await session.handle(.connected)
        await session.handle(.servicesResolved)
        await session.handle(.subscribed)
        #expect(await session.state == .subscribed)
        for pressure: Int32 in [40, 120, 180, 150] { await session.handle(value(.intermediateCuffPressure, Fixtures.cuffPressure(pressure))) }
        #expect(await session.state == .measuring(cuffPressure: MedFloat16(mantissa: 150, exponent: 0)!, unit: .millimetresOfMercury))
        let events = await session.handle(value(.bloodPressureMeasurement, Fixtures.bpmR1))
        guard case let .readingStored(reading, .stored) = events.first else { Issue.record("\(events)"); return }
        #expect(reading.systolic.doubleValue == 124)
        #expect(await session.state == .subscribed)
        #expect(await store.readings.count == 1)
    }

    @Test func storedRecordsResentOnEveryConnectionAreStoredOnce() async {
        let store = InMemoryReadingStore()
        let history = [
            Fixtures.bpmR1, Fixtures.measurement(systolic: 131, diastolic: 84, user: 0, time: Fixtures.morning),
        ]
        for _ in 0 ..< 3 {
            let session = CuffSession(device: Fixtures.cuff, users: UserDirectory(), store: store)
            await session.handle(.connected)
            await session.handle(.subscribed)
            for record in history { await session.handle(value(.bloodPressureMeasurement, record)) }
            await session.handle(.disconnected)
        }
        #expect(await store.readings.count == 2)
    }

    @Test func malformedPacketsAreSkippedAndTheSessionGoesOn() async {
        let store = InMemoryReadingStore()
        let session = CuffSession(device: Fixtures.cuff, users: UserDirectory(), store: store)
        await session.handle(.subscribed)
        let bad = await session.handle(value(.bloodPressureMeasurement, [0x1E, 0x8A, 0x00]))
        guard case let .malformedValue(characteristic, error, _) = bad.first else { Issue.record("\(bad)"); return }
        #expect(characteristic == .bloodPressureMeasurement)
        #expect(error.isTruncation)
        await session.handle(value(.intermediateCuffPressure, [0x00]))
        await session.handle(value(.bloodPressureMeasurement, Fixtures.bpmR1))
        #expect(await store.readings.count == 1)
    }

    @Test func aFailedMeasurementIsAnEventNotASample() async {
        let store = InMemoryReadingStore()
        let session = CuffSession(device: Fixtures.cuff, users: UserDirectory(), store: store)
        let events = await session.handle(value(.bloodPressureMeasurement, Fixtures.bpmR2))
        guard case .measurementFailed = events.first else { Issue.record("\(events)"); return }
        #expect(await store.readings.isEmpty)
    }

    @Test func aStoreFailureLosesNothing() async throws {
        let store = FlakyStore()
        let clock = TestClock()
        let later = LaterEvents()
        let session = CuffSession(
            device: Fixtures.cuff, users: UserDirectory(), store: store, retry: RetryBackoff(first: .seconds(1)), clock: clock, laterEvents: later.receive)
        let failed = await session.handle(value(.bloodPressureMeasurement, Fixtures.bpmR1))
        guard case let .storeFailed(_, reason, waiting) = failed.first else { Issue.record("\(failed)"); return }
        #expect(reason == "disk full")
        #expect(waiting == 1)
        #expect(await session.pending.count == 1)
        await store.recover()
        #expect(await clock.advanceToNextDeadline() == .seconds(1), "the retry comes after the first backoff")
        _ = try await later.recorder.next { if case .storeRecovered(committed: 1) = $0 { true } else { false } }
        #expect(await session.pending.isEmpty)
        #expect(await store.inner.readings.count == 1)
    }

    @Test func twoUsersOnOneCuffAreKeptApart() async {
        var users = UserDirectory()
        users.assign("alice", to: 0, of: Fixtures.cuff.stableKey)
        users.assign("bob", to: 1, of: Fixtures.cuff.stableKey)
        let store = InMemoryReadingStore()
        let session = CuffSession(device: Fixtures.cuff, users: users, store: store)
        await session.handle(value(.bloodPressureMeasurement, Fixtures.measurement(systolic: 120, diastolic: 80, user: 0, time: Fixtures.morning)))
        await session.handle(value(.bloodPressureMeasurement, Fixtures.measurement(systolic: 120, diastolic: 80, user: 1, time: Fixtures.morning)))
        #expect(await store.readings.map(\.person) == ["alice", "bob"])
    }

    @Test func disconnectMidMeasurementLeavesNothingHalfDone() async {
        let store = InMemoryReadingStore()
        let session = CuffSession(device: Fixtures.cuff, users: UserDirectory(), store: store)
        await session.handle(.subscribed)
        await session.handle(value(.intermediateCuffPressure, Fixtures.cuffPressure(90)))
        await session.handle(.disconnected)
        #expect(await session.state == .disconnected)
        #expect(await store.readings.isEmpty)
        #expect(await session.pending.isEmpty)
    }

    @Test func eventsComeBackInOrder() async {
        let session = CuffSession(device: Fixtures.cuff, users: UserDirectory(), store: InMemoryReadingStore())
        var seen: [String] = []
        for event in [LinkEvent.connecting, .connected, value(.bloodPressureMeasurement, Fixtures.bpmR1)] {
            for produced in await session.handle(event) {
                switch produced {
                case let .stateChanged(state): seen.append("\(state)")
                case .readingStored: seen.append("stored")
                default: seen.append("other")
                }
            }
        }
        #expect(seen == ["connecting", "resolving", "stored"])
    }
}
