import Foundation
import GATTHealth
import GatewayTestSupport
import Testing
@testable import Gateway

@Suite("Heart-rate values in a session")
struct HeartRateSessionTests {
    static func value(_ rate: UInt16, contact: HeartRateMeasurement.SensorContact = .detected, rr: [UInt16]? = nil, energy: UInt16? = nil) -> [UInt8] {
        HeartRateMeasurement(heartRate: rate, sensorContact: contact, energyExpended: energy, rrIntervals: rr.map(RRIntervals.init)).encoded()
    }

    static func event(_ bytes: [UInt8], second: Int) -> LinkEvent {
        .value(.heartRateMeasurement, bytes, receivedAt: Fixtures.receivedAt.addingTimeInterval(Double(second)))
    }

    static func stored(_ events: [SessionEvent]) -> [HeartRateSample] {
        events.flatMap { (event: SessionEvent) -> [HeartRateSample] in
            if case let .heartRatesStored(samples) = event { return samples }
            return []
        }
    }

    @Test("Values wait for the batch window, then go in as one commit with their contact, energy and RR intervals")
    func batched() async throws {
        let store = InMemoryReadingStore()
        let clock = TestClock()
        let later = LaterEvents()
        let session = CuffSession(
            device: Fixtures.cuff, users: UserDirectory(), store: store, heartRateWindow: .seconds(1), clock: clock, laterEvents: later.receive)
        var produced: [SessionEvent] = []
        for second in 0 ..< 5 {
            produced += await session.handle(Self.event(Self.value(60 + UInt16(second), rr: [1000, 1010], energy: 12), second: second))
        }
        #expect(Self.stored(produced).isEmpty, "nothing is committed before the window ends")
        await clock.sleepers(count: 1)
        clock.advance(by: .seconds(1) - .milliseconds(1))
        #expect(await store.heartRates.isEmpty, "nor a moment before")
        clock.advance(by: .milliseconds(1))
        _ = try await later.recorder.next { if case .heartRatesStored = $0 { true } else { false } }
        let samples = await store.heartRates
        #expect(samples.map(\.beatsPerMinute) == [60, 61, 62, 63, 64])
        #expect(samples.allSatisfy { $0.rrIntervals == [1000, 1010] && $0.energyExpended == 12 && $0.sensorContact == .detected })
        #expect(samples.map(\.receivedAt) == (0 ..< 5).map { Fixtures.receivedAt.addingTimeInterval(Double($0)) })
        let batches = later.recorder.all.filter { if case .heartRatesStored = $0 { true } else { false } }
        #expect(batches.count == 1, "one commit for the five values")
        #expect(clock.sleeperCount == 0, "and none more due")
    }

    @Test("The link going down commits at once and ends the summary, values without contact counted apart")
    func disconnectCommitsAndSummarizes() async {
        let store = InMemoryReadingStore()
        let session = CuffSession(device: Fixtures.cuff, users: UserDirectory(), store: store, heartRateWindow: .seconds(60))
        _ = await session.handle(Self.event(Self.value(70), second: 0))
        _ = await session.handle(Self.event(Self.value(80), second: 1))
        _ = await session.handle(Self.event(Self.value(150, contact: .notDetected), second: 2))
        let produced = await session.handle(.disconnected)
        #expect(Self.stored(produced).count == 3)
        #expect(await store.heartRates.count == 3)
        let summaries = produced.compactMap { if case let .heartRateSummary(summary) = $0 { summary } else { nil } }
        #expect(summaries.count == 1)
        #expect(summaries.first?.count == 3)
        #expect(summaries.first?.withoutContact == 1)
        #expect(summaries.first?.mean == 75, "the value without contact is not averaged in")
        #expect(summaries.first?.maximum == 80)
    }

    @Test("A malformed value and an implausible rate are reported and are no samples")
    func badValues() async {
        let store = InMemoryReadingStore()
        let session = CuffSession(device: Fixtures.cuff, users: UserDirectory(), store: store)
        let malformed = await session.handle(Self.event([0x10, 0x48], second: 0))  // RR flag, no interval
        let tooLow = await session.handle(Self.event(Self.value(12), second: 1))
        let closing = await session.handle(.disconnected)
        guard case .malformedValue(.heartRateMeasurement, _, payload: [0x10, 0x48])? = malformed.first else { Issue.record("\(malformed)"); return }
        guard case .implausibleHeartRate(12, _)? = tooLow.first else { Issue.record("\(tooLow)"); return }
        #expect(Self.stored(closing).isEmpty)
        #expect(await store.heartRates.isEmpty)
    }

    @Test("While the store refuses, values wait and are retried with backoff; one event when it starts and one when it ends")
    func refusal() async throws {
        let store = FlakyStore()
        let clock = TestClock()
        let later = LaterEvents()
        let session = CuffSession(
            device: Fixtures.cuff, users: UserDirectory(), store: store, retry: RetryBackoff(first: .seconds(20), maximum: .seconds(40)),
            heartRateWindow: .seconds(10), clock: clock, laterEvents: later.receive)
        _ = await session.handle(Self.event(Self.value(70), second: 0))
        _ = await session.handle(Self.event(Self.value(71), second: 1))
        let produced = await session.handle(.disconnected)
        #expect(produced.filter { if case .heartRatesRefused(_, waiting: 2) = $0 { true } else { false } }.count == 1, "\(produced)")
        var delays: [Duration] = []
        for _ in 0 ..< 3 { delays.append(await clock.advanceToNextDeadline()) }
        // Each retry has failed once the next is scheduled.
        await clock.sleepers(count: 1)
        #expect(delays == [.seconds(20), .seconds(40), .seconds(40)], "backoff, doubling up to its maximum")
        #expect(await store.attempts == 4)
        #expect(later.recorder.all.isEmpty, "retries while the store still refuses say nothing")
        await store.recover()
        await clock.advanceToNextDeadline()
        let recovered = try await later.recorder.next { if case .heartRatesRecovered = $0 { true } else { false } }
        guard case .heartRatesRecovered(committed: 2, dropped: 0) = recovered else { Issue.record("\(recovered)"); return }
        #expect(await store.inner.heartRates.map(\.beatsPerMinute) == [70, 71])
    }

    @Test("A summary is due once a minute of values is committed")
    func summaryPerMinute() {
        var batch = HeartRateBatch(window: .seconds(1), limit: 100)
        let samples = (0 ... 60).map { second in
            HeartRateSample(
                device: Fixtures.cuff, person: nil, beatsPerMinute: 60, sensorContact: .detected, energyExpended: nil, rrIntervals: [],
                receivedAt: Fixtures.receivedAt.addingTimeInterval(Double(second)))
        }
        for sample in samples.prefix(60) {
            batch.append(sample)
            #expect(batch.committed([sample]) == nil, "less than a minute")
        }
        batch.append(samples[60])
        let summary = batch.committed([samples[60]])
        #expect(summary?.count == 61)
        #expect(batch.finishSummary() == nil, "a new summary starts after the one written")
    }

    @Test("The sync identifier names the device and the microsecond of receipt")
    func syncIdentifier() {
        let sample = HeartRateSample(
            device: Fixtures.cuff, person: nil, beatsPerMinute: 60, sensorContact: .detected, energyExpended: nil, rrIntervals: [],
            receivedAt: Date(timeIntervalSince1970: 1_790_000_000.25))
        #expect(sample.syncIdentifier == "cuffd.hr:\(Fixtures.cuff.stableKey):1790000000250000")
    }
}
