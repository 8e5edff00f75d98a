import GATTHealth
import Testing

@Suite("Record Access Control Point and Blood Pressure Record")
struct RecordAccessTests {
    @Test("0x2A52 vectors", arguments: TestVector.of("2A52"))
    func controlPoint(_ vector: TestVector) throws {
        let value = try RecordAccessControlPoint(decoding: vector.bytes)
        var fields: [String: ExpectedValue] = [
            "opCode": .of(value.opCode.rawValue), "operator": .of(value.operator.rawValue),
        ]
        switch value.operand {
        case .none: break
        case let .filter(type, filterValue):
            fields["filterType"] = .of(type.rawValue)
            fields["filterValue"] = .of(filterValue)
        case let .range(type, minimum, _):
            fields["filterType"] = .of(type.rawValue)
            fields["filterValue"] = .of(minimum)
        case let .numberOfRecords(count): fields["numberOfRecords"] = .of(count)
        case let .response(request, code):
            fields["requestOpCode"] = .of(request)
            fields["responseCode"] = .of(code)
        case let .sequenceNumber(number): fields["sequenceNumber"] = .of(number)
        }
        #expect(fields == vector.expected)
        #expect(value.encoded() == vector.bytes)
    }

    @Test func reportNewRecordsRequest() throws {
        let request = RecordAccessControlPoint.reportRecords(fromSequenceNumber: 0x0102)
        #expect(request.encoded() == [0x01, 0x03, 0x01, 0x02, 0x01])
        #expect(try RecordAccessControlPoint(decoding: [0x06, 0x00, 0x01, 0x06]).responseCodeValue == .noRecordsFound)
    }

    @Test func rangeFilterAndErrors() throws {
        let range = RecordAccessControlPoint(
            opCode: .reportStoredRecords, operator: .withinRangeOf, operand: .range(.sequenceNumber, minimum: 3, maximum: 9))
        #expect(try RecordAccessControlPoint(decoding: range.encoded()) == range)
        #expect(throws: GATTDecodingError(.recordAccessControlPoint, .unsupportedOpCode(0x42))) {
            try RecordAccessControlPoint(decoding: [0x42, 0x00])
        }
        #expect(throws: GATTDecodingError(.recordAccessControlPoint, .unsupportedFilterType(0x09))) {
            try RecordAccessControlPoint(decoding: [0x01, 0x03, 0x09, 0x00, 0x00])
        }
        #expect(throws: GATTDecodingError(.recordAccessControlPoint, .truncated(required: 5, actual: 4))) {
            try RecordAccessControlPoint(decoding: [0x01, 0x03, 0x01, 0x00])
        }
    }

    @Test func segmentedRecordReassembles() throws {
        let measurement = EnhancedBloodPressureMeasurement(
            systolic: MedFloat16(mantissa: 121, exponent: 0)!, diastolic: MedFloat16(mantissa: 79, exponent: 0)!,
            meanArterialPressure: MedFloat16(mantissa: 93, exponent: 0)!, timeStamp: 789_000_000,
            pulseRate: MedFloat16(mantissa: 64, exponent: 0)!, userID: 2, userFacingTime: 789_003_600)
        let segments = BloodPressureRecordSegment.encodeSegments(
            sequenceNumber: 41, recordedCharacteristicUUID: 0x2B34, recordedValue: measurement.encoded(),
            maximumSegmentLength: 8, firstCounter: 62)
        #expect(segments.count > 2)
        var assembler = BloodPressureRecordAssembler(feature: [])
        for segment in segments.dropLast() { #expect(try assembler.append(segment) == nil) }
        let record = try #require(try assembler.append(segments.last!))
        #expect(record.sequenceNumber == 41)
        #expect(try record.decodeRecordedValue() == .enhancedBloodPressureMeasurement(measurement))
    }

    @Test func outOfOrderAndOrphanSegmentsAreErrors() throws {
        let segments = BloodPressureRecordSegment.encodeSegments(
            sequenceNumber: 1, recordedCharacteristicUUID: 0x2A35, recordedValue: Array(repeating: 0, count: 30))
        var assembler = BloodPressureRecordAssembler(feature: [])
        #expect(throws: GATTDecodingError(.bloodPressureRecord, .segmentWithoutFirst)) {
            try assembler.append(segments[1])
        }
        _ = try assembler.append(segments[0])
        var skipped = segments[1]
        skipped[0] = skipped[0] &+ 4  // counter + 1
        #expect(throws: GATTDecodingError(.bloodPressureRecord, .segmentOutOfOrder(expected: 1, actual: 2))) {
            try assembler.append(skipped)
        }
    }

    @Test func e2eCRCIsSplitOffWhenTheFeatureSaysSo() throws {
        let value = BloodPressureMeasurement(
            systolic: MedFloat16(mantissa: 120, exponent: 0)!, diastolic: MedFloat16(mantissa: 80, exponent: 0)!,
            meanArterialPressure: MedFloat16(mantissa: 93, exponent: 0)!)
        let segments = BloodPressureRecordSegment.encodeSegments(
            sequenceNumber: 7, recordedCharacteristicUUID: 0x2A35, recordedValue: value.encoded() + [0xCD, 0xAB])
        var assembler = BloodPressureRecordAssembler(feature: [.e2eCRC])
        let record = try #require(try segments.compactMap { try assembler.append($0) }.first)
        #expect(record.e2eCRC == 0xABCD)
        #expect(try record.decodeRecordedValue() == .bloodPressureMeasurement(value))
    }
}
