// Invariants of Record Access Control Point 0x2A52 (docs/reference/GATT-HEALTH.md §8): the decoder's outcome is compared
// with a model written from the op code, operator and filter type tables.

/// Every input gets the outcome the tables give it (value or exact error); what decodes re-encodes to the
/// bytes it came from, without the trailing ones.
func checkRecordAccessControlPoint(_ bytes: UnsafeRawBufferPointer) {
    let result = outcome { () throws(GATTDecodingError) in try RecordAccessControlPoint(decoding: bytes) }
    let expected = RecordAccessModel.outcome(of: Array(bytes))
    switch (result, expected) {
    case let (.success(value), .value(model)):
        invariant(value.opCode.rawValue == bytes[0] && value.operator.rawValue == bytes[1], "RACP op code or operator misread")
        invariant(value.operand == model.operand, "RACP operand \(value.operand), tables say \(model.operand)")
        invariant(value.trailingByteCount == bytes.count - model.length, "RACP trailing bytes miscounted")
        invariant(value.encoded() == prefix(bytes, model.length), "re-encoding changed the RACP value")
    case let (.failure(error), .error(problem)):
        invariant(error.problem == problem, "RACP error \(error.problem), tables say \(problem)")
    default:
        invariant(false, "RACP outcome \(result), tables say \(expected)")
    }
}

/// The RACP tables of docs/reference/GATT-HEALTH.md §8, as cuffd reads them.
enum RecordAccessModel {
    struct Decoded {
        var operand: RecordAccessControlPoint.Operand
        /// Bytes the value spans (op code and operator included).
        var length: Int
    }

    static func outcome(of bytes: [UInt8]) -> ModelOutcome<Decoded> {
        guard bytes.count >= 2 else { return .error(.truncated(required: 2, actual: bytes.count)) }
        let (opCode, op) = (bytes[0], bytes[1])
        guard [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x10, 0x11].contains(opCode) else { return .error(.unsupportedOpCode(opCode)) }
        guard op <= 0x06 else { return .error(.unsupportedOperator(op)) }
        func word(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        switch opCode {
        case 0x03, 0x10:  // abort; Omron "report latest sequence number": no operand
            return .value(Decoded(operand: .none, length: 2))
        case 0x05, 0x06, 0x11:  // responses: two operand bytes
            guard bytes.count >= 4 else { return .error(.truncated(required: 4, actual: bytes.count)) }
            let operand: RecordAccessControlPoint.Operand = switch opCode {
            case 0x05: .numberOfRecords(word(2))
            case 0x06: .response(request: bytes[2], code: bytes[3])
            default: .sequenceNumber(word(2))
            }
            return .value(Decoded(operand: operand, length: 4))
        default:  // 0x01, 0x02, 0x04: the operator decides whether a filter follows
            return filter(bytes, operator: op)
        }
    }

    /// Operators 0x02–0x04 carry a filter type (0x01 and 0x04: uint16, 0x02: uint32) and one value, or two
    /// for "within range of"; the others carry nothing.
    private static func filter(_ bytes: [UInt8], operator op: UInt8) -> ModelOutcome<Decoded> {
        guard (0x02 ... 0x04).contains(op) else { return .value(Decoded(operand: .none, length: 2)) }
        guard bytes.count >= 3 else { return .error(.truncated(required: 3, actual: bytes.count)) }
        let typeCode = bytes[2]
        guard let type = RecordAccessControlPoint.FilterType(rawValue: typeCode), [0x01, 0x02, 0x04].contains(typeCode) else {
            return .error(.unsupportedFilterType(typeCode))
        }
        let width = typeCode == 0x02 ? 4 : 2
        let length = 3 + (op == 0x04 ? 2 : 1) * width
        guard bytes.count >= length else { return .error(.truncated(required: length, actual: bytes.count)) }
        func value(_ at: Int) -> UInt32 { (0 ..< width).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) } }
        let operand: RecordAccessControlPoint.Operand = op == 0x04
            ? .range(type, minimum: value(3), maximum: value(3 + width)) : .filter(type, value(3))
        return .value(Decoded(operand: operand, length: length))
    }
}
