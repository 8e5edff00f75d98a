import Foundation
import Testing
@testable import HealthStore

/// The bloodPressure correlation (docs/reference/HEALTH-STORE.md §1–2; HealthKit: `HKCorrelation`).
@Suite struct CorrelationTests {
    @Test func aReadingIsSavedAsCorrelationMembersAndLinkedPulse() throws {
        let store = try Fixture.store()
        let outcome = try store.saveBloodPressure(Fixture.reading(), as: Fixture.daemon)
        guard case .inserted(let saved) = outcome else { Issue.record("expected inserted, got \(outcome)"); return }
        let stored = try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon)
        #expect(stored.count == 1)
        let c = try #require(stored.first)
        #expect(c.uuid == saved.uuid)
        #expect(c.member(.bloodPressureSystolic)?.quantity.value == 120)
        #expect(c.member(.bloodPressureDiastolic)?.quantity.value == 80)
        #expect(c.member(.bloodPressureMean)?.quantity.value == 93)
        #expect(c.linkedSamples.map(\.type) == [.heartRate])
        #expect(c.objects.allSatisfy { $0.startDate == c.startDate && $0.endDate == c.endDate })
        #expect(c.metadata.syncIdentifier == "C4F312FFFE53F2C9-1-1")
        #expect(c.metadata.bodyPosition == .sittingDown)
        #expect(c.device == Fixture.cuff)
        #expect(try Fixture.count(store, .heartRate) == 1)
    }

    @Test func kPaReadingsAreConvertedOnce() throws {
        let store = try Fixture.store()
        var reading = Fixture.reading()
        reading.systolic = 16
        reading.diastolic = 10.6
        reading.mean = nil
        reading.pressureUnit = .kilopascal
        let c = try store.saveBloodPressure(reading, as: Fixture.daemon).object
        #expect(abs(c.member(.bloodPressureSystolic)!.quantity.value - 120.00985) < 1e-4)
        #expect(c.member(.bloodPressureMean) == nil)
    }

    @Test func effectiveDateAppliesTheClockOffset() {
        var reading = Fixture.reading()
        #expect(reading.effectiveDate == reading.receivedAt)
        reading.deviceTimestamp = Fixture.t0
        reading.clockOffsetMs = 90_000
        #expect(reading.effectiveDate == Fixture.t0.addingTimeInterval(90))
    }

    @Test func missingDiastolicIsATypedErrorAndNothingIsWritten() throws {
        let store = try Fixture.store()
        let systolic = QuantitySample(type: .bloodPressureSystolic, quantity: HealthQuantity(unit: .millimeterOfMercury, doubleValue: 120), start: Fixture.t0, end: Fixture.t0)
        let c = Correlation(type: .bloodPressure, start: Fixture.t0, end: Fixture.t0, objects: [systolic])
        #expect(throws: HealthStoreError.missingCorrelationMember(correlation: c.uuid, type: "bloodPressureDiastolic")) { try store.save(c, as: Fixture.daemon) }
        #expect(try Fixture.count(store, .bloodPressureSystolic) == 0)
    }

    @Test func membersMustBeUniqueOfMemberTypesAndShareTheDates() throws {
        let store = try Fixture.store()
        let reading = Fixture.reading().correlation()
        let s = reading.objects[0], d = reading.objects[1]
        let twoSystolic = Correlation(type: .bloodPressure, start: s.startDate, end: s.endDate, objects: [s, d, QuantitySample(type: .bloodPressureSystolic, quantity: s.quantity, start: s.startDate, end: s.endDate)])
        #expect(throws: HealthStoreError.self) { try store.save(twoSystolic, as: Fixture.daemon) }
        let heartMember = Correlation(type: .bloodPressure, start: s.startDate, end: s.endDate, objects: [s, d, Fixture.heartRate(60, at: s.startDate)])
        #expect(throws: HealthStoreError.self) { try store.save(heartMember, as: Fixture.daemon) }
        let otherDates = Correlation(type: .bloodPressure, start: s.startDate.addingTimeInterval(-60), end: s.endDate, objects: [s, d])
        #expect(throws: HealthStoreError.self) { try store.save(otherDates, as: Fixture.daemon) }
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).isEmpty)
    }

    @Test func anInvalidLinkedSampleAbortsTheWholeReading() throws {
        let store = try Fixture.store()
        let reading = Fixture.reading().correlation()
        let badPulse = QuantitySample(type: .heartRate, quantity: HealthQuantity(unit: .kilopascal, doubleValue: 1), start: reading.startDate, end: reading.endDate)
        let c = Correlation(type: .bloodPressure, start: reading.startDate, end: reading.endDate, objects: reading.objects, linkedSamples: [badPulse])
        #expect(throws: HealthStoreError.self) { try store.save(c, as: Fixture.daemon) }
        #expect(try Fixture.count(store, .bloodPressureSystolic) == 0)
        #expect(try Fixture.count(store, .heartRate) == 0)
    }

    @Test func aStorageFailureMidTransactionLeavesNoHalfCorrelation() throws {
        let store = try Fixture.store()
        let first = try store.saveBloodPressure(Fixture.reading(1), as: Fixture.daemon).object
        // Second reading reuses the first one's pulse UUID: the members insert, then the pulse
        // insert fails on the UUID constraint, and the transaction must roll back as a whole.
        let second = Fixture.reading(2).correlation()
        let clash = QuantitySample(uuid: first.linkedSamples[0].uuid, type: .heartRate, quantity: HealthQuantity(unit: .countPerMinute, doubleValue: 70), start: second.startDate, end: second.endDate)
        let c = Correlation(type: .bloodPressure, start: second.startDate, end: second.endDate, objects: second.objects, linkedSamples: [clash], metadata: second.metadata)
        #expect(throws: HealthStoreError.duplicateUUID(clash.uuid)) { try store.save(c, as: Fixture.daemon) }
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).count == 1)
        #expect(try Fixture.count(store, .bloodPressureSystolic) == 1)
    }
}

/// Several readings (a cuff's stored records) in one transaction.
@Suite struct ReadingBatchTests {
    @Test func aBatchOfReadingsIsAllOrNothing() throws {
        let store = try Fixture.store()
        var bad = Fixture.reading(3)
        bad.systolic = .nan
        #expect(throws: HealthStoreError.self) { try store.saveBloodPressure([Fixture.reading(1), Fixture.reading(2), bad], as: Fixture.daemon) }
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).isEmpty)
        let outcomes = try store.saveBloodPressure([Fixture.reading(1), Fixture.reading(2), Fixture.reading(1)], as: Fixture.daemon)
        #expect(outcomes.map(\.didCommit) == [true, true, false])
        #expect(outcomes[2].object.uuid == outcomes[0].object.uuid)
    }
}
