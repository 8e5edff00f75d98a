// Invariants of Blood Pressure Record 0x2B36 (docs/reference/GATT-HEALTH.md §7): one segment, a stream of segments through
// BloodPressureRecordAssembler against a model of the joining rules, and encodeSegments → assembler.

/// The fuzz input drives three checks: the whole input as one segment; the input cut into segments
/// (each first byte a length) fed to the assembler and to the model side by side; and a record built
/// from the input, split by `encodeSegments` and joined again.
func checkRecordSegments(_ bytes: UnsafeRawBufferPointer) {
    checkOneSegment(bytes)
    let hasCRC = bytes.count.isMultiple(of: 2)
    var assembler = BloodPressureRecordAssembler(feature: hasCRC ? [.e2eCRC] : [])
    var model = RecordJoiningModel(hasCRC: hasCRC)
    var cursor = 0
    while cursor < bytes.count {
        let length = Int(bytes[cursor]) % 24
        let segment = Array(bytes[(cursor + 1) ..< min(bytes.count, cursor + 1 + length)])
        cursor += 1 + length
        let actual = outcome { () throws(GATTDecodingError) in try assembler.append(segment) }
        let expected = model.append(segment)
        switch (actual, expected) {
        case let (.success(record), .value(modelRecord)):
            invariant(record == modelRecord, "assembler record \(String(describing: record)), model \(String(describing: modelRecord))")
            if let record { checkRecordedValue(record) }
        case let (.failure(error), .error(problem)):
            invariant(error.problem == problem, "assembler error \(error.problem), model \(problem)")
        default:
            invariant(false, "assembler outcome \(actual), model \(expected)")
        }
    }
    checkSplitAndJoin(bytes)
}

/// A segment decodes unless it is empty or a first segment shorter than its 5-byte header; its fields
/// are the header bits and, in a first segment, the two little-endian words after them.
private func checkOneSegment(_ bytes: UnsafeRawBufferPointer) {
    let result = outcome { () throws(GATTDecodingError) in try BloodPressureRecordSegment(decoding: bytes) }
    guard let header = bytes.first else { return expectTruncation(result, required: 1, actual: 0, "segment") }
    let isFirst = header & 1 != 0
    guard !isFirst || bytes.count >= 5 else { return expectTruncation(result, required: 5, actual: bytes.count, "segment") }
    guard let segment = expectValue(result, "segment") else { return }
    invariant(segment.isFirst == isFirst && segment.isLast == (header & 2 != 0) && segment.counter == header >> 2, "segment header misread")
    invariant(segment.sequenceNumber == (isFirst ? littleEndian16(bytes, 1) : nil), "sequence number misread")
    invariant(segment.recordedCharacteristicUUID == (isFirst ? littleEndian16(bytes, 3) : nil), "recorded UUID misread")
    invariant(segment.payloadRange == (isFirst ? 5 : 1) ..< bytes.count, "segment payload misplaced")
}

/// A record's value decodes as the characteristic its UUID names (0x2A35, 0x2B34), exactly as that
/// characteristic's own decoder does; any other UUID is refused.
private func checkRecordedValue(_ record: BloodPressureRecordAssembler.Record) {
    let decoded = outcome { () throws(GATTDecodingError) in try record.decodeRecordedValue() }
    let direct: Result<DecodedCharacteristic, GATTDecodingError> = switch record.recordedCharacteristicUUID {
    case 0x2A35: outcome { () throws(GATTDecodingError) in .bloodPressureMeasurement(try .init(decoding: record.recordedValue)) }
    case 0x2B34: outcome { () throws(GATTDecodingError) in .enhancedBloodPressureMeasurement(try .init(decoding: record.recordedValue)) }
    default: .failure(GATTDecodingError(.bloodPressureRecord, .unsupportedRecordedCharacteristic(record.recordedCharacteristicUUID)))
    }
    invariant(decoded == direct, "a recorded value decodes unlike its characteristic")
}

/// Any value split by `encodeSegments` (segment length 6–37, any first counter) joins back into exactly
/// one record, on the last segment, equal to what was split (with the CRC, when the feature has one).
private func checkSplitAndJoin(_ bytes: UnsafeRawBufferPointer) {
    // Input: [0] CRC flag (bit 0) and first counter (bits 2–7), [1–2] sequence number, [3–4] UUID,
    // [5] segment length, [6–7] CRC, then the recorded value (its first 160 bytes).
    guard bytes.count >= 8 else { return }
    let hasCRC = bytes[0] & 1 != 0
    let sequenceNumber = littleEndian16(bytes, 1), uuid = littleEndian16(bytes, 3), crc = littleEndian16(bytes, 6)
    let maximumLength = 6 + Int(bytes[5] % 32)
    let value = Array(bytes.dropFirst(8).prefix(160))  // ≤ 33 segments; a high first counter still wraps
    let segments = BloodPressureRecordSegment.encodeSegments(
        sequenceNumber: sequenceNumber, recordedCharacteristicUUID: uuid,
        recordedValue: hasCRC ? value + [bytes[6], bytes[7]] : value,
        maximumSegmentLength: maximumLength, firstCounter: bytes[0] >> 2)
    var assembler = BloodPressureRecordAssembler(feature: hasCRC ? [.e2eCRC] : [])
    for (index, segment) in segments.enumerated() {
        invariant(segment.count <= maximumLength, "a segment longer than asked for")
        let record = try? assembler.append(segment)
        invariant((record != nil) == (index == segments.count - 1), "a record completed on segment \(index) of \(segments.count)")
        if let record {
            let expected = BloodPressureRecordAssembler.Record(
                sequenceNumber: sequenceNumber, recordedCharacteristicUUID: uuid, recordedValue: value,
                e2eCRC: hasCRC ? crc : nil)
            invariant(record == expected, "split and joined record differs")
        }
    }
}

/// The joining rules of docs/reference/GATT-HEALTH.md §7 as BloodPressureRecordAssembler documents them: a first segment
/// starts a record (dropping an unfinished one); a later one must carry the next counter (mod 64), or the
/// record is dropped; a last segment completes it; with the feature's E2E-CRC the final two bytes are the
/// CRC.
struct RecordJoiningModel {
    let hasCRC: Bool
    var pending: (sequenceNumber: UInt16, uuid: UInt16, nextCounter: UInt8, value: [UInt8])?

    init(hasCRC: Bool) { self.hasCRC = hasCRC }

    mutating func append(_ segment: [UInt8]) -> ModelOutcome<BloodPressureRecordAssembler.Record?> {
        guard let header = segment.first else { return .error(.truncated(required: 1, actual: 0)) }
        let counter = header >> 2
        if header & 1 != 0 {
            guard segment.count >= 5 else { return .error(.truncated(required: 5, actual: segment.count)) }
            let word = { (at: Int) in UInt16(segment[at]) | UInt16(segment[at + 1]) << 8 }
            pending = (word(1), word(3), (counter + 1) % 64, Array(segment.dropFirst(5)))
        } else {
            guard let current = pending else { return .error(.segmentWithoutFirst) }
            guard counter == current.nextCounter else {
                pending = nil
                return .error(.segmentOutOfOrder(expected: current.nextCounter, actual: counter))
            }
            pending = (current.sequenceNumber, current.uuid, (counter + 1) % 64, current.value + segment.dropFirst())
        }
        guard header & 2 != 0, let complete = pending else { return .value(nil) }
        pending = nil
        guard hasCRC else {
            return .value(.init(sequenceNumber: complete.sequenceNumber, recordedCharacteristicUUID: complete.uuid, recordedValue: complete.value))
        }
        let count = complete.value.count
        guard count >= 2 else { return .error(.truncated(required: 2, actual: count)) }
        return .value(.init(
            sequenceNumber: complete.sequenceNumber, recordedCharacteristicUUID: complete.uuid,
            recordedValue: Array(complete.value.prefix(count - 2)),
            e2eCRC: UInt16(complete.value[count - 2]) | UInt16(complete.value[count - 1]) << 8))
    }
}
