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
}
