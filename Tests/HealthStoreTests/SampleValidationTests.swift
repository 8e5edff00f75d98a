import Foundation
import Testing
@testable import HealthStore

/// Bad input gets a typed error and writes nothing; samples are immutable values with
/// start ≤ end (HealthKit: `HKSample`).
@Suite struct SampleValidationTests {
    @Test func endBeforeStartIsRejectedAndTheBatchIsNotWritten() throws {
        let store = try Fixture.store()
        let good = Fixture.heartRate(60, at: Fixture.t0)
        let bad = QuantitySample(type: .heartRate, quantity: HealthQuantity(unit: .countPerMinute, doubleValue: 61), start: Fixture.t0, end: Fixture.t0.addingTimeInterval(-1))
        #expect(throws: HealthStoreError.endBeforeStart(uuid: bad.uuid)) { try store.save([good, bad], as: Fixture.daemon) }
        #expect(try Fixture.count(store, .heartRate) == 0)
    }

    @Test func incompatibleUnitIsRejected() throws {
        let store = try Fixture.store()
        let sample = QuantitySample(type: .heartRate, quantity: HealthQuantity(unit: .millimeterOfMercury, doubleValue: 60), start: Fixture.t0, end: Fixture.t0)
        #expect(throws: HealthStoreError.incompatibleUnit(unit: "mmHg", expected: "count/min")) { try store.save([sample], as: Fixture.daemon) }
        #expect(try Fixture.count(store, .heartRate) == 0)
    }

    @Test func nonFiniteValueIsRejected() throws {
        let store = try Fixture.store()
        let sample = Fixture.heartRate(.nan, at: Fixture.t0)
        #expect(throws: HealthStoreError.nonFiniteValue(uuid: sample.uuid)) { try store.save([sample], as: Fixture.daemon) }
    }

    @Test func implausibleButFiniteValuesAreKept() throws {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure(Fixture.reading(systolic: 279), as: Fixture.daemon)
        #expect(try store.samples(SampleQuery(type: .bloodPressureSystolic), as: Fixture.daemon).first?.quantity.value == 279)
    }

    @Test func valuesAreStoredInTheCanonicalUnit() throws {
        let store = try Fixture.store()
        let kPa = QuantitySample(type: .bloodPressureSystolic, quantity: HealthQuantity(unit: .kilopascal, doubleValue: 16), start: Fixture.t0, end: Fixture.t0)
        _ = try store.save([kPa], as: Fixture.daemon)
        let stored = try #require(try store.samples(SampleQuery(type: .bloodPressureSystolic), as: Fixture.daemon).first)
        #expect(stored.quantity.unit == .millimeterOfMercury)
        #expect(abs(stored.quantity.value - 16_000 / 133.322387415) < 1e-9)
        #expect(stored.uuid == kPa.uuid)
    }

    @Test func savingAnExistingUUIDFails() throws {
        let store = try Fixture.store()
        let sample = Fixture.heartRate(60, at: Fixture.t0)
        _ = try store.save([sample], as: Fixture.daemon)
        #expect(throws: HealthStoreError.duplicateUUID(sample.uuid)) { try store.save([sample], as: Fixture.daemon) }
        #expect(try Fixture.count(store, .heartRate) == 1)
    }

    @Test func metadataIsTypedAndValidated() throws {
        let store = try Fixture.store()
        var wrongKind = HealthMetadata()
        wrongKind[.deviceUserID] = .string("one")
        #expect(throws: HealthStoreError.invalidMetadata(key: "DeviceUserId", reason: "expected integer, got string")) {
            try store.save([Fixture.heartRate(60, at: Fixture.t0, metadata: wrongKind)], as: Fixture.daemon)
        }
        var outOfRange = HealthMetadata()
        outOfRange[.bodyPosition] = .integer(9)
        #expect(throws: HealthStoreError.self) { try store.save([Fixture.heartRate(60, at: Fixture.t0, metadata: outOfRange)], as: Fixture.daemon) }
        let unknown = HealthMetadata(["Colour": .string("red")])
        #expect(throws: HealthStoreError.invalidMetadata(key: "Colour", reason: "unknown key")) {
            try store.save([Fixture.heartRate(60, at: Fixture.t0, metadata: unknown)], as: Fixture.daemon)
        }
        var lonely = HealthMetadata()
        lonely.syncIdentifier = "x"
        #expect(throws: HealthStoreError.self) { try store.save([Fixture.heartRate(60, at: Fixture.t0, metadata: lonely)], as: Fixture.daemon) }
        #expect(try Fixture.count(store, .heartRate) == 0)
    }

    @Test func everyMetadataKindRoundTrips() throws {
        let store = try Fixture.store()
        var metadata = HealthMetadata()
        metadata.wasUserEntered = true
        metadata.deviceUserID = 3
        metadata.measurementStatus = 0x0104
        metadata.bodyPosition = .lyingDown
        metadata.measurementLocation = .rightWrist
        metadata.deviceTimestamp = Fixture.t0.addingTimeInterval(-42)
        metadata.coincidentTimeOffsetMs = -1500
        metadata[.externalUUID] = .string("ext \"quoted\" \\ ü")
        metadata.syncIdentifier = "s"
        metadata.syncVersion = 7
        let sample = Fixture.heartRate(60, at: Fixture.t0, device: Fixture.cuff, metadata: metadata)
        _ = try store.save([sample], as: Fixture.daemon)
        let stored = try #require(try store.samples(SampleQuery(type: .heartRate), as: Fixture.daemon).first)
        #expect(stored.metadata == metadata)
        #expect(stored.device == Fixture.cuff)
        #expect(stored.startDate == Fixture.t0)
        #expect(stored.sourceRevision?.source.bundleIdentifier == "org.cuffd.gateway")
    }
}
