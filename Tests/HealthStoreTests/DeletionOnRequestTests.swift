import Foundation
import Testing
@testable import HealthStore

/// Deleting readings on request by sync identifier (docs/health-store.md, "Deleting"): gone from every query and
/// statistic, tombstoned for the change feed, remembered for good.
@Suite struct DeletionOnRequestTests {
    static let all: Set<HealthObjectType> = [.correlation(.bloodPressure)]

    static func systolicCount(_ store: HealthStore) throws -> Int {
        try store.statistics(of: .bloodPressureSystolic, predicate: SamplePredicate(), options: .discrete, as: Fixture.daemon).all.sampleCount
    }

    @Test func aDeletedReadingLeavesQueriesStatisticsAndRollupsAndTheFeedSaysSo() throws {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure([Fixture.reading(1, systolic: 120), Fixture.reading(2, systolic: 180)], as: Fixture.daemon)
        let anchor = try store.changes(of: Self.all, since: nil, limit: 10, as: Fixture.daemon).newAnchor
        #expect(try Self.systolicCount(store) == 2)

        #expect(try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: ["C4F312FFFE53F2C9-1-2"], as: Fixture.daemon) == 5)
        let left = try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon)
        #expect(left.map(\.metadata.syncIdentifier) == ["C4F312FFFE53F2C9-1-1"])
        #expect(try Fixture.count(store, .heartRate) == 1)
        // Statistics without a filter are summed from the rollups: they lost the deleted members too.
        let systolic = try store.statistics(of: .bloodPressureSystolic, predicate: SamplePredicate(), options: .discrete, as: Fixture.daemon)
        #expect(systolic.all.sampleCount == 1 && systolic.all.maximum?.value == 120)
        let feed = try store.changes(of: Self.all, since: anchor, limit: 10, as: Fixture.daemon)
        #expect(feed.added.isEmpty)
        #expect(feed.deleted.map(\.syncIdentifier) == ["C4F312FFFE53F2C9-1-2"] && feed.deleted.map(\.syncVersion) == [0])
    }

    @Test func aDeletedReadingSentAgainIsNotStoredAgainAtAnyVersion() throws {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure(Fixture.reading(1), as: Fixture.daemon)
        _ = try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: ["C4F312FFFE53F2C9-1-1"], as: Fixture.daemon)
        let anchor = try store.changes(of: Self.all, since: nil, limit: 10, as: Fixture.daemon).newAnchor
        for version: Int64 in [0, 1] {
            let outcome = try store.saveBloodPressure(Fixture.reading(1, version: version), as: Fixture.daemon)
            guard case .deleted = outcome else { Issue.record("saved again: \(outcome)"); continue }
            #expect(!outcome.didCommit)
        }
        // Saved beside other readings, it alone is left out.
        let outcomes = try store.saveBloodPressure([Fixture.reading(1), Fixture.reading(3)], as: Fixture.daemon)
        #expect(outcomes.map(\.didCommit) == [false, true])
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).map(\.metadata.syncIdentifier) == ["C4F312FFFE53F2C9-1-3"])
        #expect(try store.changes(of: Self.all, since: anchor, limit: 10, as: Fixture.daemon).added.count == 1)
    }

    @Test func anUnknownSyncIdentifierDeletesNothing() throws {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure(Fixture.reading(1), as: Fixture.daemon)
        #expect(throws: HealthStoreError.unknownSyncIdentifier("nope")) {
            try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: ["C4F312FFFE53F2C9-1-1", "nope"], as: Fixture.daemon)
        }
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).count == 1)
        // A member's sync identifier names no reading.
        #expect(throws: HealthStoreError.unknownSyncIdentifier("C4F312FFFE53F2C9-1-1#systolic")) {
            try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: ["C4F312FFFE53F2C9-1-1#systolic"], as: Fixture.daemon)
        }
    }

    @Test func aUidMayDeleteWhatItMayReadOnlyWithShareAccess() throws {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure(Fixture.reading(1), as: Fixture.daemon)
        let id = ["C4F312FFFE53F2C9-1-1"]
        // Nothing granted: not determined. Read only: denied.
        #expect(throws: HealthStoreError.authorizationNotDetermined(type: "bloodPressureSystolic")) {
            try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: id, as: Fixture.alice)
        }
        for type in [QuantityType.bloodPressureSystolic, .bloodPressureDiastolic] {
            try store.setAuthorization(AuthorizationGrant(uid: 1000, type: type, canShare: false, canRead: true), by: Fixture.root)
        }
        #expect(throws: HealthStoreError.authorizationDenied(type: "bloodPressureSystolic")) {
            try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: id, as: Fixture.alice)
        }
        // Share without read: only its own readings, and cuffd's are not.
        for type in [QuantityType.bloodPressureSystolic, .bloodPressureDiastolic] {
            try store.setAuthorization(AuthorizationGrant(uid: 1000, type: type, canShare: true, canRead: false), by: Fixture.root)
        }
        #expect(throws: HealthStoreError.unknownSyncIdentifier(id[0])) {
            try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: id, as: Fixture.alice)
        }
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).count == 1)
        // Share and read: cuffd's reading too.
        for type in [QuantityType.bloodPressureSystolic, .bloodPressureDiastolic] {
            try store.setAuthorization(AuthorizationGrant(uid: 1000, type: type, canShare: true, canRead: true), by: Fixture.root)
        }
        #expect(try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: id, as: Fixture.alice) == 5)
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).isEmpty)
    }

    @Test func aDeletionIsRememberedAcrossReopeningAndTombstonePurges() throws {
        let folder = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        let clock = TestClock()
        var configuration = StoreConfiguration()
        configuration.clock = { clock.date }
        do {
            let store = try HealthStore.open(path: path, configuration: configuration)
            _ = try store.saveBloodPressure(Fixture.reading(1), as: Fixture.daemon)
            _ = try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: ["C4F312FFFE53F2C9-1-1"], as: Fixture.daemon)
        }
        clock.advance(by: 400 * 86_400)
        let store = try HealthStore.open(path: path, configuration: configuration)
        #expect(try store.purgeExpiredTombstones() == 0)  // purged at open already
        #expect(try !store.saveBloodPressure(Fixture.reading(1), as: Fixture.daemon).didCommit)
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).isEmpty)
    }
}

/// Readings entered by hand (docs/health-store.md, "Correcting readings").
@Suite struct EnteredByHandTests {
    static func reading() -> BloodPressureReading {
        BloodPressureReading(
            systolic: 128, diastolic: 82, pulse: 70, receivedAt: Fixture.t0, device: Fixture.cuff, bodyPosition: .sittingDown,
            measurementLocation: .leftUpperArm, note: "pharmacy", syncIdentifier: "cuffd.manual:1")
    }

    @Test func aReadingEnteredByHandIsTheCallersMarkedAndHasNoDevice() throws {
        let store = try Fixture.store()
        let saved = try store.saveEnteredByHand(Self.reading(), as: .daemon(uid: 0)).object
        #expect(saved.device == nil && saved.metadata.wasUserEntered == true && saved.metadata[.recordingMethod] == .integer(3))
        #expect(saved.metadata.note == "pharmacy" && saved.metadata.measurementLocation == .leftUpperArm)
        let stored = try #require(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).first)
        #expect(stored.sourceRevision?.source.bundleIdentifier == "uid.0" && stored.device == nil)
        #expect(stored.objects.allSatisfy { $0.metadata.wasUserEntered == true && $0.device == nil })
    }

    @Test func aUidNeedsShareAccessAndThenReadsItsOwn() throws {
        let store = try Fixture.store()
        // Whichever of the reading's types is checked first.
        #expect {
            try store.saveEnteredByHand(Self.reading(), as: Fixture.alice)
        } throws: { error in
            if case HealthStoreError.authorizationNotDetermined = error { true } else { false }
        }
        for type in [QuantityType.bloodPressureSystolic, .bloodPressureDiastolic, .bloodPressureMean, .heartRate] {
            try store.setAuthorization(AuthorizationGrant(uid: 1000, type: type, canShare: true, canRead: false), by: Fixture.root)
        }
        _ = try store.saveEnteredByHand(Self.reading(), as: Fixture.alice)
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.alice).count == 1)
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.bob).isEmpty)
    }
}

/// Revisions on request (docs/health-store.md, "Revising on request").
@Suite struct RevisionOnRequestTests {
    static let id = "C4F312FFFE53F2C9-1-1"

    static func counts(_ store: HealthStore, _ predicate: SamplePredicate) throws -> [Int] {
        try [QuantityType.bloodPressureSystolic, .heartRate].map {
            try store.statistics(of: $0, predicate: predicate, options: .discrete, as: Fixture.daemon).all.sampleCount
        }
    }

    @Test func aRevisionRaisesTheVersionKeepsTheValuesAndTheFeedReplacesIt() throws {
        let store = try Fixture.store()
        let original = try store.saveBloodPressure(Fixture.reading(1), as: Fixture.daemon).object
        let anchor = try store.changes(of: [.correlation(.bloodPressure)], since: nil, limit: 10, as: Fixture.daemon).newAnchor
        let revised = try store.reviseCorrelation(
            of: .bloodPressure, syncIdentifier: Self.id, changes: [.personIdentifier: .string("bob"), .note: .string("after coffee"), .bodyPosition: nil],
            as: Fixture.daemon)
        #expect(revised.metadata.syncVersion == 1 && revised.metadata.personIdentifier == "bob" && revised.metadata.bodyPosition == nil)
        let stored = try #require(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).first)
        #expect(stored.uuid == revised.uuid && stored.uuid != original.uuid && stored.metadata.note == "after coffee")
        #expect(stored.member(.bloodPressureSystolic)?.quantity.value == 120 && stored.objects.allSatisfy { $0.metadata.personIdentifier == "bob" })
        #expect(stored.sourceRevision?.source.bundleIdentifier == original.sourceRevision?.source.bundleIdentifier && stored.device == original.device)
        let feed = try store.changes(of: [.correlation(.bloodPressure)], since: anchor, limit: 10, as: Fixture.daemon)
        #expect(feed.added.count == 1 && feed.deleted.map(\.syncVersion) == [0] && feed.deleted.map(\.syncIdentifier) == [Self.id])
        // Again: version 2.
        #expect(try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: Self.id, changes: [.note: nil], as: Fixture.daemon).metadata.syncVersion == 2)
    }

    @Test func anExcludedReadingLeavesStatisticsFromTheRollupAndFromSamplesAndComesBackIncluded() throws {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure([Fixture.reading(1, systolic: 190), Fixture.reading(2, systolic: 120)], as: Fixture.daemon)
        var counted = SamplePredicate()
        counted.excludeExcluded = true
        // A date range cutting slots: part of it is summed from samples, not the rollup.
        var partial = counted
        partial.dateRange = DateRange(start: Fixture.t0.addingTimeInterval(3600 - 60), end: Fixture.t0.addingTimeInterval(3 * 3600 + 60), strictStartDate: true)
        _ = try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: Self.id, changes: [.exclusionReason: .string("guest")], as: Fixture.daemon)
        #expect(try Self.counts(store, counted) == [1, 1])
        #expect(try Self.counts(store, partial) == [1, 1])
        #expect(try Self.counts(store, SamplePredicate()) == [2, 2])
        let max = try store.statistics(of: .bloodPressureSystolic, predicate: counted, options: .discrete, as: Fixture.daemon).all.maximum?.value
        #expect(max == 120)
        // Excluded readings are still listed, marked.
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).compactMap(\.metadata.exclusionReason) == ["guest"])
        _ = try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: Self.id, changes: [.exclusionReason: nil], as: Fixture.daemon)
        #expect(try Self.counts(store, counted) == [2, 2])
    }

    @Test func anUnknownOrDeletedReadingOrABadValueChangesNothing() throws {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure(Fixture.reading(1), as: Fixture.daemon)
        #expect(throws: HealthStoreError.unknownSyncIdentifier("nope")) {
            try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: "nope", changes: [.note: .string("x")], as: Fixture.daemon)
        }
        #expect(throws: HealthStoreError.self) {
            try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: Self.id, changes: [.bodyPosition: .integer(9)], as: Fixture.daemon)
        }
        #expect(throws: HealthStoreError.self) {
            try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: Self.id, changes: [.syncVersion: .integer(9)], as: Fixture.daemon)
        }
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).first?.metadata.syncVersion == 0)
        _ = try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: [Self.id], as: Fixture.daemon)
        #expect(throws: HealthStoreError.unknownSyncIdentifier(Self.id)) {
            try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: Self.id, changes: [.note: .string("x")], as: Fixture.daemon)
        }
    }
}

/// A uid whose read grant names people changes their readings only (docs/health-store.md, "Deleting on request").
@Suite struct PersonScopedEditingTests {
    @Test func aReaderOfOnePersonChangesTheirReadingsOnlyAndKeepsThemTheirs() throws {
        let store = try Fixture.store()
        var bobs = Fixture.reading(2)
        bobs.personIdentifier = "bob"
        _ = try store.saveBloodPressure([Fixture.reading(1), bobs], as: Fixture.daemon)
        for type in [QuantityType.bloodPressureSystolic, .bloodPressureDiastolic, .bloodPressureMean, .heartRate] {
            try store.setAuthorization(AuthorizationGrant(uid: 1000, type: type, canShare: true, canRead: true, people: ["patient-0001"]), by: Fixture.root)
        }
        let alice = Fixture.alice
        #expect(throws: HealthStoreError.unknownSyncIdentifier("C4F312FFFE53F2C9-1-2")) {
            try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: ["C4F312FFFE53F2C9-1-2"], as: alice)
        }
        #expect(throws: HealthStoreError.unknownSyncIdentifier("C4F312FFFE53F2C9-1-2")) {
            try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: "C4F312FFFE53F2C9-1-2", changes: [.note: .string("x")], as: alice)
        }
        #expect(throws: HealthStoreError.authorizationDenied(type: "bloodPressure of bob")) {
            try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: "C4F312FFFE53F2C9-1-1", changes: [.personIdentifier: .string("bob")], as: alice)
        }
        #expect(throws: HealthStoreError.authorizationDenied(type: "bloodPressure of nobody")) {
            try store.saveEnteredByHand(EnteredByHandTests.reading(), as: alice)
        }
        #expect(try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: "C4F312FFFE53F2C9-1-1", changes: [.note: .string("x")], as: alice).metadata.syncVersion == 1)
        #expect(try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: ["C4F312FFFE53F2C9-1-1"], as: alice) == 5)
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).map(\.metadata.personIdentifier) == ["bob"])
    }
}
