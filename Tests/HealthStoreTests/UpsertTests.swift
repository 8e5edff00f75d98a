import Foundation
import Testing
@testable import HealthStore

/// The sync identifier / version rule (docs/reference/HEALTH-STORE.md §3): unique (source, syncIdentifier);
/// replaced iff the version is strictly greater; equal or lower is a no-op returning the stored object.
@Suite struct UpsertTests {
    @Test func sameVersionIsANoOpReturningTheStoredObject() throws {
        let store = try Fixture.store()
        let first = try store.saveBloodPressure(Fixture.reading(version: 1), as: Fixture.daemon)
        #expect(first.didCommit)
        let again = try store.saveBloodPressure(Fixture.reading(version: 1, systolic: 150), as: Fixture.daemon)
        guard case .alreadyStored(let stored) = again else { Issue.record("expected alreadyStored, got \(again)"); return }
        #expect(stored.uuid == first.object.uuid)
        #expect(stored.member(.bloodPressureSystolic)?.quantity.value == 120)
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).count == 1)
    }

    @Test func lowerVersionIsANoOp() throws {
        let store = try Fixture.store()
        let first = try store.saveBloodPressure(Fixture.reading(version: 2), as: Fixture.daemon)
        let lower = try store.saveBloodPressure(Fixture.reading(version: 1, systolic: 150), as: Fixture.daemon)
        #expect(!lower.didCommit)
        #expect(lower.object.uuid == first.object.uuid)
    }

    @Test func greaterVersionReplacesAndTombstonesTheOldUUID() throws {
        let store = try Fixture.store()
        let v1 = try store.saveBloodPressure(Fixture.reading(version: 1), as: Fixture.daemon).object
        let anchor = try store.changes(of: [.correlation(.bloodPressure)], since: nil, limit: 100, as: Fixture.daemon).newAnchor
        let outcome = try store.saveBloodPressure(Fixture.reading(version: 2, systolic: 131), as: Fixture.daemon)
        guard case .replaced(let v2, let replaced) = outcome else { Issue.record("expected replaced, got \(outcome)"); return }
        #expect(replaced == v1.uuid)
        let all = try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon)
        #expect(all.map(\.uuid) == [v2.uuid])
        #expect(all[0].member(.bloodPressureSystolic)?.quantity.value == 131)
        #expect(all[0].metadata.syncVersion == 2)
        #expect(try Fixture.count(store, .bloodPressureSystolic) == 1)
        #expect(try Fixture.count(store, .heartRate) == 1)
        let feed = try store.changes(of: [.correlation(.bloodPressure), .quantity(.bloodPressureSystolic)], since: anchor, limit: 100, as: Fixture.daemon)
        #expect(Set(feed.deleted.map(\.uuid)).isSuperset(of: [v1.uuid, v1.member(.bloodPressureSystolic)!.uuid]))
        #expect(feed.deleted.first { $0.uuid == v1.uuid }?.syncVersion == 1)
        #expect(feed.added.map(\.uuid).contains(v2.uuid))
    }

    @Test func aReplacedMemberTakesTheOldOnesPlaceInItsCorrelation() throws {
        let store = try Fixture.store()
        let c = try store.saveBloodPressure(Fixture.reading(version: 0), as: Fixture.daemon).object
        let old = c.member(.bloodPressureSystolic)!
        var metadata = old.metadata
        metadata.syncVersion = 1
        let corrected = QuantitySample(type: .bloodPressureSystolic, quantity: HealthQuantity(unit: .millimeterOfMercury, doubleValue: 119), start: old.startDate, end: old.endDate, metadata: metadata)
        let outcome = try store.save([corrected], as: Fixture.daemon)
        #expect(outcome == [.replaced(outcome[0].object, replacedUUID: old.uuid)])
        let after = try #require(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).first)
        #expect(after.uuid == c.uuid)
        #expect(after.member(.bloodPressureSystolic)?.uuid == corrected.uuid)
        #expect(after.member(.bloodPressureSystolic)?.quantity.value == 119)
    }

    @Test func theKeyIsPerSource() throws {
        let store = try Fixture.store(adminGroup: 50)
        try store.setAuthorization(AuthorizationGrant(uid: 1000, type: .heartRate, canShare: true, canRead: true), by: Fixture.root)
        let a = try store.save([Fixture.heartRate(60, at: Fixture.t0, sync: "k")], as: Fixture.daemon)
        let b = try store.save([Fixture.heartRate(61, at: Fixture.t0, sync: "k")], as: Fixture.alice)
        #expect(a[0].didCommit && b[0].didCommit)
        #expect(try Fixture.count(store, .heartRate) == 2)
    }

    @Test func aBatchMixesOutcomes() throws {
        let store = try Fixture.store()
        _ = try store.save([Fixture.heartRate(60, at: Fixture.t0, sync: "a", version: 1)], as: Fixture.daemon)
        let outcomes = try store.save([
            Fixture.heartRate(61, at: Fixture.t0, sync: "a", version: 1),
            Fixture.heartRate(62, at: Fixture.t0, sync: "b", version: 0),
            Fixture.heartRate(63, at: Fixture.t0, sync: "a", version: 3),
        ], as: Fixture.daemon)
        #expect(outcomes.map(\.didCommit) == [false, true, true])
        #expect(try store.samples(SampleQuery(type: .heartRate), as: Fixture.daemon).map(\.quantity.value).sorted() == [62, 63])
    }
}
