import Foundation
import Testing
@testable import HealthStore

/// The edit history (docs/health-store.md, "Edit history"): every reading entered by hand, annotated or deleted on
/// request is recorded with the caller's uid and the keys that changed, in the change's own transaction, and read back
/// only by those who may read the reading.
@Suite struct EditHistoryTests {
    static let id = "C4F312FFFE53F2C9-1-1"

    static func grantShareAndRead(_ store: HealthStore, uid: UInt32, people: Set<String>? = nil) throws {
        for type in [QuantityType.bloodPressureSystolic, .bloodPressureDiastolic, .bloodPressureMean, .heartRate] {
            try store.setAuthorization(AuthorizationGrant(uid: uid, type: type, canShare: true, canRead: true, people: people), by: Fixture.root)
        }
    }

    @Test func annotationsAndTheDeletionAreRecordedInOrderWithTheCallerAndKeysNeverValues() throws {
        let clock = TestClock()
        let store = try Fixture.store(clock: clock)
        _ = try store.saveBloodPressure(Fixture.reading(1), as: Fixture.daemon)
        // Stored by a cuff: no history yet.
        #expect(throws: HealthStoreError.unknownSyncIdentifier(Self.id)) {
            try store.editHistory(of: .bloodPressure, syncIdentifier: Self.id, as: Fixture.daemon)
        }
        try Self.grantShareAndRead(store, uid: 1000)
        _ = try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: Self.id, changes: [.exclusionReason: .string("guest"), .note: .string("secret")], as: Fixture.alice)
        clock.advance(by: 60)
        _ = try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: [Self.id], as: .daemon(uid: 1001))
        let history = try store.editHistory(of: .bloodPressure, syncIdentifier: Self.id, as: Fixture.daemon)
        #expect(history.map(\.action) == [.annotated, .deleted])
        #expect(history.map(\.uid) == [1000, 1001])
        #expect(history.map(\.changedKeys) == [["ExclusionReason", "Note"], []])
        #expect(history.map(\.date) == [clock.date.addingTimeInterval(-60), clock.date])
        #expect(history.allSatisfy { $0.syncIdentifier == Self.id })
    }

    @Test func anEntryByHandIsRecordedWithItsKeys() throws {
        let store = try Fixture.store()
        try Self.grantShareAndRead(store, uid: 1000)
        let saved = try store.saveEnteredByHand(EnteredByHandTests.reading(), as: Fixture.alice)
        let history = try store.editHistory(of: .bloodPressure, syncIdentifier: "cuffd.manual:1", as: Fixture.alice)
        #expect(history.map(\.action) == [.entered] && history.map(\.uid) == [1000])
        #expect(history.first?.changedKeys == EditRecord.enteredKeys(saved.object.metadata))
        #expect(history.first.map { Set(["WasUserEntered", "Note", "BodyPosition", "MeasurementLocation"]).isSubset(of: $0.changedKeys) } == true)
        // Sent again with the same sync identifier and version: nothing committed, nothing recorded.
        _ = try store.saveEnteredByHand(EnteredByHandTests.reading(), as: Fixture.alice)
        #expect(try store.editHistory(of: .bloodPressure, syncIdentifier: "cuffd.manual:1", as: Fixture.alice).count == 1)
    }

    @Test func aFailedChangeRecordsNothing() throws {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure([Fixture.reading(1), Fixture.reading(2)], as: Fixture.daemon)
        #expect(throws: HealthStoreError.unknownSyncIdentifier("nope")) {
            try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: [Self.id, "nope"], as: Fixture.daemon)
        }
        #expect(throws: HealthStoreError.self) {
            try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: Self.id, changes: [.bodyPosition: .integer(9)], as: Fixture.daemon)
        }
        #expect(throws: HealthStoreError.unknownSyncIdentifier(Self.id)) {
            try store.editHistory(of: .bloodPressure, syncIdentifier: Self.id, as: Fixture.daemon)
        }
    }

    @Test func manyReadingsAreRevisedInOneCallAllOrNothingEachWithItsRecord() throws {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure((1...3).map { Fixture.reading($0) }, as: Fixture.daemon)
        let ids = (1...3).map { "C4F312FFFE53F2C9-1-\($0)" }
        #expect(throws: HealthStoreError.unknownSyncIdentifier("nope")) {
            try store.reviseCorrelations(of: .bloodPressure, syncIdentifiers: ids + ["nope"], changes: [.exclusionReason: .string("guest")], as: Fixture.daemon)
        }
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).allSatisfy { $0.metadata.syncVersion == 0 })
        let revised = try store.reviseCorrelations(of: .bloodPressure, syncIdentifiers: ids + [ids[0]], changes: [.exclusionReason: .string("guest")], as: Fixture.daemon)
        #expect(revised.map(\.metadata.syncIdentifier) == ids && revised.allSatisfy { $0.metadata.syncVersion == 1 })
        let stored = try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon)
        #expect(stored.allSatisfy { $0.metadata[.exclusionReason] == .string("guest") && $0.metadata.syncVersion == 1 })
        for id in ids {
            #expect(try store.editHistory(of: .bloodPressure, syncIdentifier: id, as: Fixture.daemon).map(\.changedKeys) == [["ExclusionReason"]])
        }
    }

    @Test func onlyThoseWhoMayReadTheReadingReadItsHistory() throws {
        let store = try Fixture.store()
        var bobs = Fixture.reading(2)
        bobs.personIdentifier = "bob"
        _ = try store.saveBloodPressure([Fixture.reading(1), bobs], as: Fixture.daemon)
        for id in [Self.id, "C4F312FFFE53F2C9-1-2"] {
            _ = try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: id, changes: [.note: .string("x")], as: Fixture.daemon)
        }
        // No grant: nothing. A reader of patient-0001 only: theirs, not bob's. A reader of everyone's: both.
        #expect(throws: HealthStoreError.unknownSyncIdentifier(Self.id)) {
            try store.editHistory(of: .bloodPressure, syncIdentifier: Self.id, as: Fixture.alice)
        }
        try Self.grantShareAndRead(store, uid: 1000, people: ["patient-0001"])
        #expect(try store.editHistory(of: .bloodPressure, syncIdentifier: Self.id, as: Fixture.alice).count == 1)
        #expect(throws: HealthStoreError.unknownSyncIdentifier("C4F312FFFE53F2C9-1-2")) {
            try store.editHistory(of: .bloodPressure, syncIdentifier: "C4F312FFFE53F2C9-1-2", as: Fixture.alice)
        }
        try Self.grantShareAndRead(store, uid: 1001)
        #expect(try store.editHistory(of: .bloodPressure, syncIdentifier: "C4F312FFFE53F2C9-1-2", as: Fixture.bob).count == 1)
    }
}
