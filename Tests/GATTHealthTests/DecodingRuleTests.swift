import GATTHealth
import Testing

/// The decoding rules (docs/reference/GATT-HEALTH.md §3–§4), one by one.
@Suite("Decoding rules")
struct DecodingRuleTests {
    static let fullBPM: [UInt8] = [0x1E, 0x8A, 0x00, 0x58, 0x00, 0x78, 0x00, 0x00, 0x00, 0x04, 0x11, 0x14, 0x29, 0x3B, 0x3C, 0x00, 0x01, 0x27, 0x00]

    @Test func lengthComesFromTheFlagsBeforeAnyRead() {
        // Flags announce a time stamp (14 bytes needed); 7 are present: vector BPM-S5.
        #expect(throws: GATTDecodingError(.bloodPressureMeasurement, .truncated(required: 14, actual: 7))) {
            try BloodPressureMeasurement(decoding: [0x03, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07])
        }
        #expect(throws: GATTDecodingError(.bloodPressureMeasurement, .truncated(required: 7, actual: 0))) {
            try BloodPressureMeasurement(decoding: [UInt8]())
        }
    }

    @Test func reservedFlagBitsAreKeptAndDoNotChangeTheLayout() throws {
        var withRFU = Self.fullBPM
        withRFU[0] |= 0xE0
        let plain = try BloodPressureMeasurement(decoding: Self.fullBPM)
        let flagged = try BloodPressureMeasurement(decoding: withRFU)
        #expect(flagged.reservedFlags == 0xE0)
        #expect(flagged.systolic == plain.systolic && flagged.pulseRate == plain.pulseRate)
        #expect(flagged.userID == plain.userID && flagged.status == plain.status)
        #expect(flagged.encoded() == withRFU)
    }

    @Test func reservedStatusBitsAreKeptRaw() throws {
        var frame = Self.fullBPM
        frame[18] = 0xFF
        let status = try #require(try BloodPressureMeasurement(decoding: frame).status)
        #expect(status.rawValue == 0xFF27)
        #expect(status.reservedBits == 0xFF00)
        #expect(status.bodyMovement && status.cuffTooLoose && status.irregularPulse && status.improperPosition)
        #expect(status.pulseRateRange == .withinRange)
    }

    @Test func bytesAfterTheLastFieldAreIgnoredAndCounted() throws {
        let value = try BloodPressureMeasurement(decoding: Self.fullBPM + [0xAA, 0xBB, 0xCC])
        #expect(value.trailingByteCount == 3)
        #expect(value == (try BloodPressureMeasurement(decoding: Self.fullBPM)).withTrailingByteCount(3))
    }

    @Test(arguments: [
        DateTime(year: 0, month: 4, day: 17, hours: 20, minutes: 41, seconds: 59),
        DateTime(year: 2024, month: 0, day: 17, hours: 20, minutes: 41, seconds: 59),
        DateTime(year: 2024, month: 4, day: 0, hours: 20, minutes: 41, seconds: 59),
        DateTime(year: 2023, month: 2, day: 29, hours: 20, minutes: 41, seconds: 59),
        DateTime(year: 2024, month: 13, day: 1, hours: 0, minutes: 0, seconds: 0),
        DateTime(year: 2024, month: 4, day: 31, hours: 0, minutes: 0, seconds: 0),
        DateTime(year: 2024, month: 4, day: 1, hours: 24, minutes: 0, seconds: 0),
        DateTime(year: 2024, month: 4, day: 1, hours: 0, minutes: 60, seconds: 0),
        DateTime(year: 2024, month: 4, day: 1, hours: 0, minutes: 0, seconds: 60),
        DateTime(year: 1581, month: 12, day: 31, hours: 0, minutes: 0, seconds: 0),
    ])
    func anOutOfRangeTimeStampIsUnknownNotInvalid(_ stamp: DateTime) throws {
        let sent = BloodPressureMeasurement(
            systolic: MedFloat16(mantissa: 120, exponent: 0)!, diastolic: MedFloat16(mantissa: 80, exponent: 0)!,
            meanArterialPressure: MedFloat16(mantissa: 93, exponent: 0)!, timeStamp: stamp)
        let value = try BloodPressureMeasurement(decoding: sent.encoded())
        #expect(value.timeStamp == stamp)
        #expect(value.timeStamp?.isKnown == false)
        #expect(value.timeStamp?.isoString == nil)
        #expect(value.systolic.doubleValue == 120)
    }

    @Test func knownTimeStamps() {
        #expect(DateTime(year: 2024, month: 2, day: 29, hours: 23, minutes: 59, seconds: 59).isoString == "2024-02-29T23:59:59")
        #expect(DateTime(year: 2000, month: 2, day: 29, hours: 0, minutes: 0, seconds: 0).isKnown)
        #expect(!DateTime(year: 1900, month: 2, day: 29, hours: 0, minutes: 0, seconds: 0).isKnown)
    }

    @Test func intermediateCuffPressureIgnoresTheUnusedSlots() throws {
        let a = try IntermediateCuffPressure(decoding: [0x00, 0x51, 0x00, 0x00, 0x00, 0x00, 0x00])
        let b = try IntermediateCuffPressure(decoding: [0x00, 0x51, 0x00, 0xFF, 0x07, 0x12, 0x34])
        #expect(a == b)
        #expect(a.cuffPressure.doubleValue == 81)
        #expect(a.encoded() == [0x00, 0x51, 0x00, 0xFF, 0x07, 0xFF, 0x07])
    }

    @Test func errorsNameTheProblem() {
        let error = GATTDecodingError(.bloodPressureMeasurement, .truncated(required: 14, actual: 7))
        #expect(error.description == "Blood Pressure Measurement (0x2A35): 7 bytes, but its flags and layout need at least 14")
    }
}

extension BloodPressureMeasurement {
    func withTrailingByteCount(_ count: Int) -> Self {
        var copy = self
        copy.trailingByteCount = count
        return copy
    }
}
