import GATTHealth
import Testing

/// The bytes obniz publishes for A&D's UA-651BLE and UA-1200BLE (the result interfaces of its parts `UA651BLE` and
/// `UA1200BLE`, docs/reference/GATT-HEALTH.md §13.8): a pressure in mmHg and one in kPa as their 0x2A35 carries them, and
/// the time stamp example, decoded as cuffd decodes them. They are examples in a source's documentation, not a capture.
@Suite("A&D: the bytes obniz publishes")
struct AAndDPublishedBytesTests {
    @Test("128 mmHg is 80 00; 17.6 kPa is B0 F0 (SFLOAT, exponent -1)")
    func pressures() {
        let mmHg = MedFloat16(bitPattern: 0x0080)
        #expect(mmHg.mantissa == 128 && mmHg.exponent == 0)
        let kPa = MedFloat16(bitPattern: 0xF0B0)
        #expect(kPa.mantissa == 176 && kPa.exponent == -1)
        #expect(kPa.description == "17.6")
    }

    @Test("The time stamp DD 07 08 1A 09 0A 14 is 2013-08-26 09:10:20, and cuffd writes a Date Time the same way")
    func timeStamp() throws {
        let bytes: [UInt8] = [0xDD, 0x07, 0x08, 0x1A, 0x09, 0x0A, 0x14]
        let decoded = try DateTime(decoding: bytes)
        #expect(decoded == DateTime(year: 2013, month: 8, day: 26, hours: 9, minutes: 10, seconds: 20))
        #expect(decoded.encoded() == bytes)
    }
}
