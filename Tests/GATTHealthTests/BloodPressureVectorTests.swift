import GATTHealth
import Testing

@Suite("Blood pressure vectors")
struct BloodPressureVectorTests {
    @Test("0x2A35 vectors", arguments: TestVector.of("2A35"))
    func measurement(_ vector: TestVector) throws {
        guard vector.valid else {
            let error = #expect(throws: GATTDecodingError.self) {
                try BloodPressureMeasurement(decoding: vector.bytes, quirk: vector.quirk)
            }
            #expect(error?.isTruncation == true)
            return
        }
        let value = try BloodPressureMeasurement(decoding: vector.bytes, quirk: vector.quirk)
        let expected = vector.expected
        #expect(expected["unit"] == .string(value.unit.rawValue))
        #expect(expected["systolic"] == .of(value.systolic))
        #expect(expected["diastolic"] == .of(value.diastolic))
        #expect(expected["meanArterialPressure"] == .of(value.meanArterialPressure))
        #expect(expected["pulseRate"] == .of(value.pulseRate))
        #expect(expected["userID"] == .of(value.userID))
        #expect(expected["statusRaw"] == .of(value.status?.rawValue))
        #expect(expected["timestamp"] == value.timeStamp?.isoString.map(ExpectedValue.string) ?? .null)
        #expect(value.trailingByteCount == 0)
    }

    @Test("0x2A36 vectors", arguments: TestVector.of("2A36"))
    func intermediateCuffPressure(_ vector: TestVector) throws {
        let value = try IntermediateCuffPressure(decoding: vector.bytes)
        let expected = vector.expected
        #expect(expected["unit"] == .string(value.unit.rawValue))
        #expect(expected["cuffPressure"] == .of(value.cuffPressure))
        #expect(expected["pulseRate"] == .of(value.pulseRate))
        #expect(expected["userID"] == .of(value.userID))
        #expect(expected["statusRaw"] == .of(value.status?.rawValue))
        #expect(expected["timestamp"] == value.timeStamp?.isoString.map(ExpectedValue.string) ?? .null)
    }

    @Test func statusBitsOfBPMS2() throws {
        let status = try #require(try BloodPressureMeasurement(decoding: TestVector.bytes("BPM-S2")).status)
        #expect(status.cuffTooLoose)
        #expect(status.pulseRateRange == .belowLowerLimit)
        #expect(!status.bodyMovement && !status.irregularPulse && !status.improperPosition)
    }

    @Test func abortedMeasurementIsAFailedMeasurementNotAnError() throws {
        let value = try BloodPressureMeasurement(decoding: TestVector.bytes("BPM-R2"))
        #expect(value.isFailedMeasurement)
        #expect(try !BloodPressureMeasurement(decoding: TestVector.bytes("BPM-R1")).isFailedMeasurement)
    }

    @Test func beurerFramesWithoutTheQuirkDecodeSpecLiterally() throws {
        // docs/reference/GATT-HEALTH.md §13.5: the spec-literal pulse of BPM-R4 is −256000, and one byte is left over.
        let value = try BloodPressureMeasurement(decoding: TestVector.bytes("BPM-R4"))
        #expect(value.pulseRate?.doubleValue == -256_000)
        #expect(value.userID == nil)
        #expect(value.trailingByteCount == 1)
        #expect(value.reservedFlags == 0x40)
    }

    @Test func quirkTableFindsBeurerCuffsByName() {
        #expect(BloodPressureQuirk.forAdvertisedName("BM85") == .beurerByteSwapped)
        #expect(BloodPressureQuirk.forAdvertisedName("Beurer elite900") == .beurerByteSwapped)
        #expect(BloodPressureQuirk.forAdvertisedName("BM48") == nil, "withdrawn: docs/reference/GATT-HEALTH.md §13.9")
        #expect(BloodPressureQuirk.forAdvertisedName("BLESmart_0000021F") == nil)
        #expect(BloodPressureQuirk(name: "beurer-byte-swapped") == .beurerByteSwapped)
        #expect(BloodPressureQuirk(name: "nonsense") == nil)
    }
}

extension TestVector {
    static func bytes(_ id: String) -> [UInt8] { all.first { $0.id == id }!.bytes }
}
