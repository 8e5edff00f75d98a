import Foundation
import Testing
@testable import HealthStore

/// Per-client, per-type authorization (docs/reference/HEALTH-STORE.md §6).
@Suite struct AuthorizationTests {
    @Test func savingWithoutADecisionOrWhenDeniedFailsAndWritesNothing() throws {
        let store = try Fixture.store()
        #expect(try store.authorizationStatus(for: .heartRate, as: Fixture.alice) == .notDetermined)
        #expect(throws: HealthStoreError.authorizationNotDetermined(type: "heartRate")) { try store.save([Fixture.heartRate(60, at: Fixture.t0)], as: Fixture.alice) }
        try store.setAuthorization(AuthorizationGrant(uid: 1000, type: .heartRate, canShare: false, canRead: true), by: Fixture.root)
        #expect(try store.authorizationStatus(for: .heartRate, as: Fixture.alice) == .sharingDenied)
        #expect(throws: HealthStoreError.authorizationDenied(type: "heartRate")) { try store.save([Fixture.heartRate(60, at: Fixture.t0)], as: Fixture.alice) }
        #expect(try Fixture.count(store, .heartRate) == 0)
    }

    @Test func aCorrelationNeedsShareForEveryMemberType() throws {
        let store = try Fixture.store()
        for type in [QuantityType.bloodPressureSystolic, .bloodPressureDiastolic, .bloodPressureMean] {
            try store.setAuthorization(AuthorizationGrant(uid: 1000, type: type, canShare: true, canRead: false), by: Fixture.root)
        }
        #expect(throws: HealthStoreError.authorizationNotDetermined(type: "heartRate")) { try store.saveBloodPressure(Fixture.reading(), as: Fixture.alice) }
        #expect(try store.saveBloodPressure(Fixture.reading(pulse: nil), as: Fixture.alice).didCommit)
    }

    @Test func withoutReadPermissionAClientSeesOnlyItsOwnWrites() throws {
        let store = try Fixture.store()
        try store.setAuthorization(AuthorizationGrant(uid: 1000, type: .heartRate, canShare: true, canRead: false), by: Fixture.root)
        _ = try store.save([Fixture.heartRate(60, at: Fixture.t0)], as: Fixture.daemon)
        _ = try store.save([Fixture.heartRate(70, at: Fixture.t0)], as: Fixture.alice)
        #expect(try store.samples(SampleQuery(type: .heartRate), as: Fixture.alice).map(\.quantity.value) == [70])
        #expect(try store.samples(SampleQuery(type: .heartRate), as: Fixture.bob).isEmpty)
        #expect(try store.statistics(of: .heartRate, predicate: .all, options: .average, as: Fixture.alice).all.average?.value == 70)
        #expect(try store.changes(of: [.quantity(.heartRate)], since: nil, limit: 10, as: Fixture.alice).added.count == 1)
        try store.setAuthorization(AuthorizationGrant(uid: 1000, type: .heartRate, canShare: true, canRead: true), by: Fixture.root)
        #expect(try store.samples(SampleQuery(type: .heartRate), as: Fixture.alice).count == 2)
        #expect(try store.samples(SampleQuery(type: .heartRate), as: Fixture.daemon).count == 2)
    }

    @Test func aReaderSeesOnlyTheMembersItMayRead() throws {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure(Fixture.reading(), as: Fixture.daemon)
        for type in [QuantityType.bloodPressureSystolic, .bloodPressureDiastolic] {
            try store.setAuthorization(AuthorizationGrant(uid: 1001, type: type, canShare: false, canRead: true), by: Fixture.root)
        }
        let seen = try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.bob)
        #expect(seen.count == 1)
        let first = try #require(seen.first)
        #expect(Set(first.objects.map(\.type)) == [.bloodPressureSystolic, .bloodPressureDiastolic])
        #expect(first.linkedSamples.isEmpty)
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.alice).isEmpty)
    }

    @Test func onlyRootOrTheAdminGroupGrants() throws {
        let store = try Fixture.store(adminGroup: 970)
        let grant = AuthorizationGrant(uid: 1001, type: .heartRate, canShare: true, canRead: true)
        #expect(throws: HealthStoreError.notAdministrator(uid: 1000)) { try store.setAuthorization(grant, by: Fixture.alice) }
        try store.setAuthorization(grant, by: .user(uid: 1000, groups: [970]))
        #expect(try store.authorizationStatus(for: .heartRate, as: Fixture.bob) == .sharingAuthorized)
        try store.setAuthorization(AuthorizationGrant(uid: 1001, type: .heartRate, canShare: false, canRead: false), by: Fixture.root)
        #expect(try store.authorizationStatus(for: .heartRate, as: Fixture.bob) == .sharingDenied)
    }

    @Test func theDaemonWritesUnderItsOwnSource() throws {
        let store = try Fixture.store()
        let c = try store.saveBloodPressure(Fixture.reading(), as: Fixture.daemon).object
        #expect(c.sourceRevision?.source == HealthSource(bundleIdentifier: "org.cuffd.gateway", name: "cuffd"))
        #expect(try store.authorizationStatus(for: .bloodPressureSystolic, as: Fixture.daemon) == .sharingAuthorized)
    }
}

@Suite("Authorization in the change feed")
struct ChangeFeedAuthorizationTests {
    @Test("The feed drops a correlation's parts a reader may not read, as queries do: no pulse without heartRate")
    func feedTrimsUnreadableMembers() throws {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure(Fixture.reading(1), as: Fixture.daemon)
        for type in [QuantityType.bloodPressureSystolic, .bloodPressureDiastolic] {
            try store.setAuthorization(AuthorizationGrant(uid: 1000, type: type, canShare: false, canRead: true), by: Fixture.root)
        }
        let batch = try store.changes(of: [.correlation(.bloodPressure)], since: nil, limit: 10, as: Fixture.alice)
        guard case .correlation(let correlation)? = batch.added.first else {
            Issue.record("no correlation in \(batch.added)")
            return
        }
        #expect(correlation.linkedSamples.isEmpty)
        #expect(correlation.member(.bloodPressureMean) == nil)
        #expect(correlation.member(.bloodPressureSystolic) != nil)
        let queried = try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.alice)
        #expect(queried == [correlation])
    }
}
