import Foundation
import GATTHealth
import Testing

@Suite("Feature, time, Device Information, battery, identifiers")
struct OtherCharacteristicTests {
    @Test func bloodPressureFeature() throws {
        let feature = try BloodPressureFeature(decoding: [0x21, 0x01])
        #expect(feature == [.bodyMovementDetection, .multipleBond, .userFacingTime])
        #expect(feature.encoded() == [0x21, 0x01])
        #expect(throws: GATTDecodingError(.bloodPressureFeature, .truncated(required: 2, actual: 1))) {
            try BloodPressureFeature(decoding: [0x21])
        }
    }

    @Test func currentTimeComputesTheISOWeekday() throws {
        // 2024-06-15 was a Saturday (ISO 6); 2000-01-03 a Monday.
        let saturday = CurrentTime(dateTime: DateTime(year: 2024, month: 6, day: 15, hours: 17, minutes: 17, seconds: 27))
        #expect(saturday.dayOfWeek == 6)
        #expect(CurrentTime(dateTime: DateTime(year: 2000, month: 1, day: 3, hours: 0, minutes: 0, seconds: 0)).dayOfWeek == 1)
        #expect(saturday.encoded() == [0xE8, 0x07, 0x06, 0x0F, 0x11, 0x11, 0x1B, 0x06, 0x00, 0x01])
        #expect(try CurrentTime(decoding: saturday.encoded()) == saturday)
    }

    @Test func dateTimeFieldsChangeOneAtATime() throws {
        var stamp = try DateTime(decoding: [0xE8, 0x07, 0x06, 0x0F, 0x11, 0x11, 0x1B])
        #expect(stamp == DateTime(year: 2024, month: 6, day: 15, hours: 17, minutes: 17, seconds: 27))
        stamp.year = 0xFFFF
        stamp.month = 0xFE
        stamp.seconds = 0
        #expect(stamp == DateTime(year: 0xFFFF, month: 0xFE, day: 15, hours: 17, minutes: 17, seconds: 0))
        stamp.day = 1
        stamp.hours = 0xFF
        stamp.minutes = 2
        #expect(stamp.encoded() == [0xFF, 0xFF, 0xFE, 0x01, 0xFF, 0x02, 0x00])
    }

    @Test func epochStartsConvertToCalendarTime() {
        #expect(EpochStart.year2000.dateTime(secondsSinceEpoch: 0).isoString == "2000-01-01T00:00:00")
        #expect(EpochStart.year1900.dateTime(secondsSinceEpoch: 3_786_825_600).isoString == "2020-01-01T00:00:00")
        #expect(EpochStart.year2000.dateTime(secondsSinceEpoch: 762_525_447).isoString == "2024-02-29T12:37:27")
    }

    @Test func deviceInformationStrings() {
        #expect(DeviceInformationString(decoding: Array("OMRON HEALTHCARE".utf8) + [0, 0]).value == "OMRON HEALTHCARE")
        #expect(DeviceInformationString(decoding: [0x42, 0xFF, 0x43]).value == "B\u{FFFD}C")
        #expect(DeviceInformationString(decoding: [UInt8]()).value == "")
    }

    @Test func systemIDAndPnPID() throws {
        let id = try SystemID(decoding: [0x01, 0x02, 0x03, 0x04, 0x05, 0x0A, 0x0B, 0x0C])
        #expect(id.manufacturerIdentifier == 0x05_0403_0201)
        #expect(id.organizationallyUniqueIdentifier == 0x0C0B0A)
        #expect(id.eui64 == "0C0B0A0504030201")
        #expect(SystemID(eui64: id.eui64) == id)
        #expect(SystemID(eui64: "0C0B0A05040302") == nil)
        #expect(SystemID(eui64: "0C0B0A050403020G") == nil)
        let pnp = try PnPID(decoding: [0x01, 0x0D, 0x00, 0x34, 0x12, 0x01, 0x00])
        #expect(pnp == PnPID(vendorIDSource: 1, vendorID: 0x000D, productID: 0x1234, productVersion: 1))
        #expect(throws: GATTDecodingError(.pnpID, .truncated(required: 7, actual: 6))) {
            try PnPID(decoding: [0x01, 0x0D, 0x00, 0x34, 0x12, 0x01])
        }
    }

    @Test func batteryLevel() throws {
        #expect(try BatteryLevel(decoding: [87]).percent == 87)
        #expect(try BatteryLevel(decoding: [101]).percent == nil)
    }

    @Test func characteristicIdentifiers() {
        #expect(HealthCharacteristic(identifier: "2A35") == .bloodPressureMeasurement)
        #expect(HealthCharacteristic(identifier: "0x2a37") == .heartRateMeasurement)
        #expect(HealthCharacteristic(identifier: "00002a52-0000-1000-8000-00805f9b34fb") == .recordAccessControlPoint)
        #expect(HealthCharacteristic(identifier: "00002A52-0000-1000-8000-00805F9B34FB") == .recordAccessControlPoint)
        #expect(HealthCharacteristic(identifier: "blood-pressure-measurement") == .bloodPressureMeasurement)
        #expect(HealthCharacteristic(identifier: "pnp-id") == .pnpID)
        #expect(HealthCharacteristic(identifier: "2A99") == nil)
        #expect(HealthCharacteristic(identifier: "00002a35-0000-1000-8000-00805f9b34fc") == nil)
        #expect(HealthService.bloodPressure.uuid == "00001810-0000-1000-8000-00805f9b34fb")
    }

    /// shared/reference beside the clone, where the steering repository sits in CI.
    static let sharedVectors = TestVector.fileURL.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/reference/TEST-VECTORS.json")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: sharedVectors.path), "no steering repository beside this clone"))
    func vectorCopyMatchesTheSteeringRepository() throws {
        #expect(try Data(contentsOf: Self.sharedVectors) == Data(contentsOf: TestVector.fileURL))
    }
}
