import Foundation
import Testing
@testable import HealthStore

/// The engine queues new rows and inserts them 64, 16, 4 or 1 per statement
/// (``SQLiteSampleInserter``). These batches cross those statement boundaries and check that the
/// rules hold exactly as for row-by-row inserts: parents before children, the error naming the
/// offending object, the sync-identifier rule against rows still queued, and the rollup.
@Suite struct BatchedInsertTests {
    /// 41 readings are 205 rows: three full statements of 64 and a remainder of 13 (16 > 13, so
    /// 4 + 4 + 4 + 1), with correlations and their children falling on both sides of each boundary.
    @Test func readingsAcrossStatementBoundariesKeepTheirMembers() throws {
        let store = try Fixture.store()
        let readings = (0..<41).map { Fixture.reading($0, systolic: Double(100 + $0)) }
        let outcomes = try store.saveBloodPressure(readings, as: Fixture.daemon)
        #expect(outcomes.allSatisfy { if case .inserted = $0 { true } else { false } })
        let stored = try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon)
        #expect(stored.count == 41)
        for correlation in stored {
            let n = try #require(Int(correlation.metadata.syncIdentifier?.split(separator: "-").last ?? ""))
            #expect(correlation.member(.bloodPressureSystolic)?.quantity.value == Double(100 + n))
            #expect(correlation.objects.count == 3)
            #expect(correlation.linkedSamples.map(\.metadata.syncIdentifier) == ["C4F312FFFE53F2C9-1-\(n)#pulse"])
        }
        #expect(try Fixture.count(store, .heartRate) == 41)
    }

    /// A UUID already stored fails its statement; wherever it sits (first full statement, second
    /// one, the 16/4/1 remainder, last row), the error names it and nothing of the batch is written.
    @Test(arguments: [0, 100, 140, 149])
    func aStoredUUIDInALargeBatchIsNamedAndNothingIsWritten(position: Int) throws {
        let store = try Fixture.store()
        let existing = Fixture.heartRate(60, at: Fixture.t0)
        _ = try store.save([existing], as: Fixture.daemon)
        var batch = (0..<150).map { Fixture.heartRate(Double(40 + $0 % 100), at: Fixture.t0.addingTimeInterval(Double($0 + 1) * 60)) }
        batch[position] = existing
        #expect(throws: HealthStoreError.duplicateUUID(existing.uuid)) { try store.save(batch, as: Fixture.daemon) }
        #expect(try Fixture.count(store, .heartRate) == 1)
        #expect(try store.statistics(of: .heartRate, predicate: .all, options: .discrete, as: Fixture.daemon).all.sampleCount == 1)
    }

    /// A sync identifier saved twice in one batch while its first row still waits to be inserted:
    /// an equal version is a no-op returning the first object, a greater one replaces it, and a
    /// lower one after that returns the replacement.
    @Test func aSyncIdentifierRepeatedWhileQueuedFollowsTheUpsertRule() throws {
        let store = try Fixture.store()
        var batch = (0..<110).map { Fixture.heartRate(70, at: Fixture.t0.addingTimeInterval(Double($0) * 60)) }
        batch[5] = Fixture.heartRate(50, at: Fixture.t0, sync: "k", version: 1)
        batch[20] = Fixture.heartRate(51, at: Fixture.t0, sync: "k", version: 1)
        batch[30] = Fixture.heartRate(52, at: Fixture.t0.addingTimeInterval(30), sync: "k", version: 2)
        batch[100] = Fixture.heartRate(53, at: Fixture.t0, sync: "k", version: 0)
        let outcomes = try store.save(batch, as: Fixture.daemon)
        guard case .inserted = outcomes[5], case .alreadyStored(let first) = outcomes[20],
              case .replaced(_, let replacedUUID) = outcomes[30], case .alreadyStored(let second) = outcomes[100]
        else { Issue.record("unexpected outcomes \([5, 20, 30, 100].map { outcomes[$0] })"); return }
        #expect(first.uuid == batch[5].uuid && first.quantity.value == 50)
        #expect(replacedUUID == batch[5].uuid)
        #expect(second.uuid == batch[30].uuid && second.quantity.value == 52)
        let stored = try store.samples(SampleQuery(type: .heartRate), as: Fixture.daemon)
        #expect(stored.count == 107)
        #expect(stored.filter { $0.metadata.syncIdentifier == "k" }.map(\.quantity.value) == [52])
        let statistics = try store.statistics(of: .heartRate, predicate: .all, options: .discrete, as: Fixture.daemon)
        #expect(statistics.all.sampleCount == 107)
        #expect(statistics.all.minimum?.value == 52)
    }

    /// 400 samples are 256 + 4 × 64 + 16 (statement sizes) rows whose devices, metadata (none, one
    /// of two texts bound in place, a sync identifier) and time zones change from row to row: every
    /// stored sample reads back exactly as given.
    @Test func mixedSamplesAcrossStatementsRoundTripExactly() throws {
        let store = try Fixture.store()
        let other = HealthDevice(identity: "AA0000000000BEEF", deviceType: "heartRateMonitor", manufacturer: "Acme", model: "HR-1")
        var morning = HealthMetadata()
        morning.deviceUserID = 2
        var evening = HealthMetadata()
        evening.personIdentifier = "patient-0002"
        evening.wasUserEntered = true
        let batch = (0..<400).map { i -> QuantitySample in
            let at = Fixture.t0.addingTimeInterval(Double(i) * 60)
            let metadata = [HealthMetadata(), morning, morning, evening][i % 4]
            let sample = Fixture.heartRate(Double(40 + i % 150), at: at, sync: i % 7 == 0 ? "hr-\(i)" : nil, version: Int64(i % 3),
                                           device: [nil, Fixture.cuff, other][i % 3], metadata: metadata)
            return i % 5 == 0
                ? QuantitySample(uuid: sample.uuid, type: .heartRate, quantity: sample.quantity, start: at, end: at.addingTimeInterval(30),
                                 timeZoneIdentifier: "Europe/Berlin", device: sample.device, metadata: sample.metadata)
                : sample
        }
        _ = try store.save(batch, as: Fixture.daemon)
        let stored = try store.samples(SampleQuery(type: .heartRate, sort: .startDateAscending), as: Fixture.daemon)
        #expect(stored.count == batch.count)
        for (saved, given) in zip(stored, batch) {
            #expect(saved.uuid == given.uuid)
            #expect(saved.quantity == given.quantity)
            #expect(saved.startDate == given.startDate && saved.endDate == given.endDate)
            #expect(saved.timeZoneIdentifier == given.timeZoneIdentifier)
            #expect(saved.device == given.device)
            #expect(saved.metadata == given.metadata)
        }
    }

    /// An invalid sample late in a large batch, or a UUID repeated out of order (the hash-set
    /// path of ``DistinctUUIDs``), fails the save before anything is written.
    @Test func aFailingLargeBatchWritesNothing() throws {
        let store = try Fixture.store()
        var batch = (0..<300).map { Fixture.heartRate(60, at: Fixture.t0.addingTimeInterval(Double($0) * 60)) }
        var nonFinite = batch
        nonFinite[290] = QuantitySample(type: .heartRate, quantity: HealthQuantity(unit: .countPerMinute, doubleValue: .infinity), start: Fixture.t0, end: Fixture.t0)
        #expect(throws: HealthStoreError.nonFiniteValue(uuid: nonFinite[290].uuid)) { try store.save(nonFinite, as: Fixture.daemon) }
        batch.swapAt(10, 20)
        batch[250] = batch[15]
        #expect(throws: HealthStoreError.duplicateUUID(batch[15].uuid)) { try store.save(batch, as: Fixture.daemon) }
        #expect(try Fixture.count(store, .heartRate) == 0)
        #expect(try store.statistics(of: .heartRate, predicate: .all, options: .discrete, as: Fixture.daemon).all.sampleCount == 0)
    }

    /// The last readings come with their own members whatever the number asked for (the member
    /// query pads its id list to a power of two and keeps its statement).
    @Test(arguments: [1, 3, 4, 5, 9])
    func theLastReadingsKeepTheirMembers(limit: Int) throws {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure((0..<9).map { Fixture.reading($0, systolic: Double(100 + $0)) }, as: Fixture.daemon)
        for _ in 0..<2 {
            let last = try store.correlations(CorrelationQuery(type: .bloodPressure, sort: .startDateDescending, limit: limit), as: Fixture.daemon)
            #expect(last.map { $0.member(.bloodPressureSystolic)?.quantity.value } == (0..<limit).map { Double(108 - $0) })
            #expect(last.allSatisfy { $0.objects.count == 3 && $0.linkedSamples.count == 1 })
        }
    }
}
