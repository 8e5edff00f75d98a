import BlueZ
import FoundationEssentials
import GATTHealth
import Testing
@testable import Gateway

@Suite("Interpreting a measurement")
struct MeasurementInterpretationTests {
    func interpret(_ bytes: [UInt8], device: DeviceIdentity = Fixtures.cuff, users: UserDirectory = UserDirectory()) throws -> MeasurementInterpretation {
        let measurement = try BloodPressureMeasurement(decoding: bytes, quirk: device.quirk)
        return MeasurementInterpretation(measurement, payload: bytes, device: device, users: users, receivedAt: Fixtures.receivedAt)
    }

    @Test func aGoodMeasurementIsAReading() throws {
        guard case let .reading(reading) = try interpret(Fixtures.bpmR1) else { Issue.record("not a reading"); return }
        #expect(reading.systolic.doubleValue == 124)
        #expect(reading.diastolic.doubleValue == 86)
        #expect(reading.meanArterialPressure?.doubleValue == 97)
        #expect(reading.pulseRate?.doubleValue == 51)
        #expect(reading.deviceTime?.isoString == "2024-06-15T17:17:27")
        #expect(reading.receivedAt == Fixtures.receivedAt)
        #expect(reading.payload == Fixtures.bpmR1)
    }

    @Test func allNaNIsAFailedMeasurementNotASample() throws {
        guard case let .failed(failure) = try interpret(Fixtures.bpmR2) else { Issue.record("not a failure"); return }
        #expect(failure.deviceTime?.isoString == "2024-06-23T14:35:10")
    }

    @Test func beurerCuffsAreDecodedWithTheirQuirkAndMAPZeroIsAbsent() throws {
        guard case let .reading(reading) = try interpret(Fixtures.bpmR5, device: Fixtures.beurer) else {
            Issue.record("not a reading"); return
        }
        #expect(reading.pulseRate?.doubleValue == 65)
        #expect(reading.userID == 1)
        #expect(reading.meanArterialPressure == nil)
    }

    @Test func anUnknownDeviceTimeIsNeverInvented() throws {
        let bytes = Fixtures.measurement(systolic: 120, diastolic: 80, user: nil,
                                         time: DateTime(year: 0, month: 0, day: 0, hours: 12, minutes: 0, seconds: 0))
        guard case let .reading(reading) = try interpret(bytes) else { Issue.record("not a reading"); return }
        #expect(reading.deviceTime == nil)
        #expect(reading.syncIdentifier.contains("time-unknown"))
    }

    @Test func usersMapToPeopleButUnknownUserNever() throws {
        var users = UserDirectory()
        users.assign("alice", to: 0, of: Fixtures.cuff.stableKey)
        users.assign("bob", to: 1, of: Fixtures.cuff.address.description)
        users.assign("carol", toReadingsWithoutUserOf: Fixtures.cuff.stableKey)
        #expect(users.person(for: 0, on: Fixtures.cuff) == "alice")
        #expect(users.person(for: 1, on: Fixtures.cuff) == "bob")
        #expect(users.person(for: 2, on: Fixtures.cuff) == nil)
        #expect(users.person(for: 255, on: Fixtures.cuff) == nil)
        #expect(users.person(for: nil, on: Fixtures.cuff) == "carol")
        #expect(users.person(for: 0, on: Fixtures.beurer) == nil)
    }
}

@Suite("Sync identifiers")
struct SyncIdentifierTests {
    func reading(_ bytes: [UInt8], device: DeviceIdentity = Fixtures.cuff, sequence: UInt16? = nil) throws -> Reading {
        let measurement = try BloodPressureMeasurement(decoding: bytes)
        guard case let .reading(reading) = MeasurementInterpretation(
            measurement, payload: bytes, device: device, users: UserDirectory(), receivedAt: .now, sequenceNumber: sequence)
        else { throw CancellationError() }
        return reading
    }

    @Test func theSameRecordSentAgainHasTheSameIdentifier() throws {
        #expect(try reading(Fixtures.bpmR1).syncIdentifier == reading(Fixtures.bpmR1).syncIdentifier)
    }

    @Test func distinctReadingsInTheSameMinuteStayDistinct() throws {
        let first = try reading(Fixtures.measurement(systolic: 120, diastolic: 80, user: 0, time: Fixtures.morning))
        let second = try reading(Fixtures.measurement(systolic: 118, diastolic: 79, user: 0, time: Fixtures.morning))
        #expect(first.syncIdentifier != second.syncIdentifier)
    }

    @Test func usersAndDevicesSeparateIdenticalValues() throws {
        let alice = try reading(Fixtures.measurement(systolic: 120, diastolic: 80, user: 0, time: Fixtures.morning))
        let bob = try reading(Fixtures.measurement(systolic: 120, diastolic: 80, user: 1, time: Fixtures.morning))
        let elsewhere = try reading(Fixtures.measurement(systolic: 120, diastolic: 80, user: 0, time: Fixtures.morning), device: Fixtures.beurer)
        #expect(Set([alice.syncIdentifier, bob.syncIdentifier, elsewhere.syncIdentifier]).count == 3)
    }

    @Test func sequenceNumbersWinWhereACuffHasThem() throws {
        let value = try reading(Fixtures.bpmR1, sequence: 41)
        #expect(value.syncIdentifier == "cuffd.bp:serial:Sim/SIM-1/0001:u-:seq41")
    }

    @Test func theSystemIDIsTheMostStableIdentity() {
        var device = Fixtures.cuff
        device.systemID = SystemID(manufacturerIdentifier: 0x05_0403_0201, organizationallyUniqueIdentifier: 0x0C0B0A)
        #expect(device.stableKey == "eui64:0C0B0A0504030201")
        device.systemID = nil
        device.serial = nil
        #expect(device.stableKey == "address:C4:F3:12:53:F2:C9")
    }
}
