import GATTHealth
import Testing

@Suite("Heart rate vectors")
struct HeartRateVectorTests {
    @Test("0x2A37 vectors", arguments: TestVector.of("2A37"))
    func measurement(_ vector: TestVector) throws {
        guard vector.valid else {
            let error = #expect(throws: GATTDecodingError.self) { try HeartRateMeasurement(decoding: vector.bytes) }
            #expect(error?.isTruncation == true)
            return
        }
        let value = try HeartRateMeasurement(decoding: vector.bytes)
        #expect(vector.expected["heartRate"] == .of(value.heartRate))
        #expect(vector.expected["sensorContact"] == .string(value.sensorContact.rawValue))
        #expect(vector.expected["energyExpended"] == .of(value.energyExpended))
        #expect(vector.expected["rrIntervals"] == value.rrIntervals.map { .integers($0.map(Int.init)) } ?? .null)
    }

    @Test func rrFlagWithoutIntervalsIsMalformed() {
        // flags 0x10 (RR present), uint8 value, nothing after it.
        #expect(throws: GATTDecodingError(.heartRateMeasurement, .truncated(required: 4, actual: 2))) {
            try HeartRateMeasurement(decoding: [0x10, 0x48])
        }
        #expect(throws: GATTDecodingError(.heartRateMeasurement, .truncated(required: 4, actual: 3))) {
            try HeartRateMeasurement(decoding: [0x10, 0x48, 0x01])
        }
    }

    @Test("Every flags byte requires its fields and no more: one byte short is truncated, its length decodes")
    func everyFlagsByteRequiresItsFields() throws {
        for flags in UInt8.min ... UInt8.max {
            // GATT-HEALTH.md §9: flags, a uint8 or uint16 (bit 0) value, energy (bit 3), one RR-Interval (bit 4).
            let required = 2 + Int(flags & 0x01) + (flags & 0x08 != 0 ? 2 : 0) + (flags & 0x10 != 0 ? 2 : 0)
            let frame = [flags] + [UInt8](repeating: 0x01, count: required - 1)
            #expect(throws: GATTDecodingError(.heartRateMeasurement, .truncated(required: required, actual: required - 1))) {
                try HeartRateMeasurement(decoding: Array(frame.dropLast()))
            }
            #expect(try HeartRateMeasurement(decoding: frame).trailingByteCount == 0)
        }
    }

    @Test func anOddByteAfterTheIntervalsIsCounted() throws {
        let value = try HeartRateMeasurement(decoding: [0x10, 0x48, 0x00, 0x04, 0x35])
        #expect(value.rrIntervals.map(Array.init) == [0x0400])
        #expect(value.trailingByteCount == 1)
    }

    @Test func longIntervalListsKeepTheOldestSixteenAndCountTheRest() throws {
        let intervals = (0 ..< 40).map { UInt16(800 + $0) }
        var frame: [UInt8] = [0x10, 0x48]
        for interval in intervals { frame += [UInt8(interval & 0xFF), UInt8(interval >> 8)] }
        let decoded = try HeartRateMeasurement(decoding: frame + [0x35])
        #expect(decoded.rrIntervals.map(Array.init) == Array(intervals.prefix(16)))
        #expect(decoded.omittedRRIntervalCount == 24)
        #expect(decoded.trailingByteCount == 1)
    }

    @Test("Every list length decodes as sent", arguments: 1 ... 20)
    func everyListLength(_ count: Int) throws {
        // Intervals whose two bytes differ and differ from their neighbours', so a misplaced byte shows.
        let intervals = (0 ..< count).map { UInt16(0x0102 &* ($0 + 1)) }
        let body = intervals.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        // uint8 value (intervals from offset 2); uint16 value and energy (from offset 5), with an odd byte.
        for (head, odd) in [([0x10, 0x48] as [UInt8], [] as [UInt8]), ([0x19, 0x4B, 0x00, 0x38, 0x04], [0x35])] {
            let value = try HeartRateMeasurement(decoding: head + body + odd)
            #expect(value.rrIntervals.map(Array.init) == Array(intervals.prefix(RRIntervals.capacity)))
            #expect(value.rrIntervals == RRIntervals(intervals))
            #expect(value.omittedRRIntervalCount == max(0, count - RRIntervals.capacity))
            #expect(value.trailingByteCount == odd.count)
        }
    }

    @Test func reservedFlagBitsDoNotChangeTheLayout() throws {
        let plain = try HeartRateMeasurement(decoding: [0x16, 0x4D, 0x16, 0x03])
        let withRFU = try HeartRateMeasurement(decoding: [0xF6, 0x4D, 0x16, 0x03])
        #expect(withRFU.heartRate == plain.heartRate)
        #expect(withRFU.rrIntervals == plain.rrIntervals)
        #expect(withRFU.reservedFlags == 0xE0)
    }

    @Test func bodySensorLocationAndControlPoint() throws {
        #expect(try BodySensorLocation(decoding: [0x01]) == .chest)
        #expect(try BodySensorLocation(decoding: [0x09]).name == nil)
        #expect(try HeartRateControlPoint(decoding: [0x01]).isSupported)
        #expect(try !HeartRateControlPoint(decoding: [0x02]).isSupported)
        #expect(HeartRateControlPoint.resetEnergyExpended.encoded() == [0x01])
    }
}
