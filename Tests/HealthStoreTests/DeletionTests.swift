import Foundation
import Testing
@testable import HealthStore

/// Deletion and tombstones (docs/reference/HEALTH-STORE.md §4).
@Suite struct DeletionTests {
    @Test func deletingACorrelationTombstonesItsMembersAndPulse() throws {
        let store = try Fixture.store()
        let c = try store.saveBloodPressure(Fixture.reading(), as: Fixture.daemon).object
        #expect(try store.delete([c.uuid], as: Fixture.daemon) == 5)
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).isEmpty)
        #expect(try Fixture.count(store, .heartRate) == 0)
        let all: Set<HealthObjectType> = [.correlation(.bloodPressure), .quantity(.bloodPressureSystolic), .quantity(.bloodPressureDiastolic), .quantity(.bloodPressureMean), .quantity(.heartRate)]
        let feed = try store.changes(of: all, since: nil, limit: 100, as: Fixture.daemon)
        #expect(Set(feed.deleted.map(\.uuid)) == Set([c.uuid] + c.objects.map(\.uuid) + c.linkedSamples.map(\.uuid)))
        #expect(feed.deleted.first { $0.uuid == c.uuid }?.syncIdentifier == "C4F312FFFE53F2C9-1-1")
        #expect(feed.added.isEmpty)
    }

    @Test func onlyTheWritingSourceMayDelete() throws {
        let store = try Fixture.store()
        let c = try store.saveBloodPressure(Fixture.reading(), as: Fixture.daemon).object
        #expect(throws: HealthStoreError.notOwner(c.uuid)) { try store.delete([c.uuid], as: Fixture.alice) }
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).count == 1)
    }

    @Test func membersAreNotDeletedAlone() throws {
        let store = try Fixture.store()
        let c = try store.saveBloodPressure(Fixture.reading(), as: Fixture.daemon).object
        let member = c.objects[0].uuid
        #expect(throws: HealthStoreError.memberOfCorrelation(member)) { try store.delete([member], as: Fixture.daemon) }
    }

    @Test func multiDeleteIsAllOrNothing() throws {
        let store = try Fixture.store()
        let a = Fixture.heartRate(60, at: Fixture.t0)
        _ = try store.save([a], as: Fixture.daemon)
        let missing = UUID()
        #expect(throws: HealthStoreError.objectNotFound(missing)) { try store.delete([a.uuid, missing], as: Fixture.daemon) }
        #expect(try Fixture.count(store, .heartRate) == 1)
    }

    @Test func tombstonesExpireAfterTheRetentionAndOldAnchorsAnswerExpired() throws {
        let clock = TestClock()
        let store = try Fixture.store(clock: clock, retention: 30 * 86_400)
        let a = Fixture.heartRate(60, at: Fixture.t0), b = Fixture.heartRate(61, at: Fixture.t0)
        _ = try store.save([a, b], as: Fixture.daemon)
        let anchor = try store.changes(of: [.quantity(.heartRate)], since: nil, limit: 10, as: Fixture.daemon).newAnchor
        _ = try store.delete([a.uuid], as: Fixture.daemon)
        clock.advance(by: 29 * 86_400)
        #expect(try store.purgeExpiredTombstones() == 0)
        #expect(try store.changes(of: [.quantity(.heartRate)], since: anchor, limit: 10, as: Fixture.daemon).deleted.map(\.uuid) == [a.uuid])
        clock.advance(by: 2 * 86_400)
        #expect(try store.purgeExpiredTombstones() == 1)
        #expect(throws: HealthStoreError.anchorExpired(anchor)) { try store.changes(of: [.quantity(.heartRate)], since: anchor, limit: 10, as: Fixture.daemon) }
        // A full resync (nil anchor) still works and its anchor is valid afterwards.
        let full = try store.changes(of: [.quantity(.heartRate)], since: nil, limit: 10, as: Fixture.daemon)
        #expect(full.added.map(\.uuid) == [b.uuid])
        #expect(try store.changes(of: [.quantity(.heartRate)], since: full.newAnchor, limit: 10, as: Fixture.daemon).added.isEmpty)
    }
}
