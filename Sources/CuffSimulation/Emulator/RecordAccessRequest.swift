import GATTHealth

/// What a BPS 1.1 cuff makes of one value written to its Record Access Control Point 0x2A52
/// (docs/reference/GATT-HEALTH.md §8): the records it selects, and the indication that ends the procedure. Pure; the
/// emulator carries it out (``BluezEmulator/requestRecordAccess(_:_:)``).
///
/// Refusals follow the Response Code table: an op code other than 0x01–0x04 → Op Code Not Supported;
/// a missing or Null operator where one is needed → Invalid Operator; an operator value the decoder does
/// not know → Operator Not Supported; a filter other than Sequence Number 0x01 → Operand Not Supported;
/// a short operand, bytes after it, or a range whose minimum exceeds its maximum → Invalid Operand.
struct RecordAccessRequest: Equatable {
    enum Action: Equatable {
        /// Indicate these records on 0x2B36, oldest first, then answer Success.
        case report([RecordSpec])
        /// Answer with the Number of Stored Records Response.
        case count(UInt16)
        /// Remove the records with these sequence numbers, then answer Success.
        case delete(Set<UInt16>)
        /// Stop the procedure under way (it sends no response of its own), then answer Success.
        case abort
        /// Answer with this Response Code at once.
        case respond(RecordAccessControlPoint.ResponseCodeValue)
    }

    /// The op code the written value starts with, which the Response Code names.
    let opCode: UInt8
    let action: Action

    private struct Refusal: Error {
        let code: RecordAccessControlPoint.ResponseCodeValue
    }

    /// Reads a written value against the cuff's records (ascending sequence numbers).
    init(_ bytes: [UInt8], records: [RecordSpec]) {
        opCode = bytes.first ?? 0
        do throws(Refusal) {
            action = try Self.action(bytes, records)
        } catch {
            action = .respond(error.code)
        }
    }

    /// The indication on 0x2A52 that ends the procedure.
    var response: [UInt8] {
        let value: RecordAccessControlPoint
        switch action {
        case .count(let number):
            value = RecordAccessControlPoint(opCode: .numberOfStoredRecordsResponse, operator: .null, operand: .numberOfRecords(number))
        case .respond(let code):
            value = RecordAccessControlPoint(opCode: .responseCode, operator: .null, operand: .response(request: opCode, code: code.rawValue))
        case .report, .delete, .abort:
            value = RecordAccessControlPoint(
                opCode: .responseCode, operator: .null, operand: .response(request: opCode, code: RecordAccessControlPoint.ResponseCodeValue.success.rawValue))
        }
        return value.encoded()
    }

    private static func action(_ bytes: [UInt8], _ records: [RecordSpec]) throws(Refusal) -> Action {
        guard let first = bytes.first, (0x01...0x04).contains(first) else { throw Refusal(code: .opCodeNotSupported) }
        let request: RecordAccessControlPoint
        do {
            request = try RecordAccessControlPoint(decoding: bytes)
        } catch {
            switch error.problem {
            case .unsupportedOperator: throw Refusal(code: .operatorNotSupported)
            case .unsupportedFilterType: throw Refusal(code: .operandNotSupported)
            default: throw Refusal(code: bytes.count < 2 ? .invalidOperator : .invalidOperand)
            }
        }
        guard request.trailingByteCount == 0 else { throw Refusal(code: .invalidOperand) }
        if request.opCode == .abortOperation {
            guard request.operator == .null else { throw Refusal(code: .invalidOperator) }
            return .abort
        }
        let selected = try select(request.operator, request.operand, from: records)
        switch request.opCode {
        case .reportNumberOfStoredRecords: return .count(UInt16(selected.count))
        case _ where selected.isEmpty: throw Refusal(code: .noRecordsFound)
        case .reportStoredRecords: return .report(selected)
        default: return .delete(Set(selected.map(\.sequence)))
        }
    }

    /// The records an operator and its operand pick, by sequence number; "first" is the oldest.
    private static func select(
        _ op: RecordAccessControlPoint.Operator, _ operand: RecordAccessControlPoint.Operand, from records: [RecordSpec]
    ) throws(Refusal) -> [RecordSpec] {
        switch (op, operand) {
        case (.null, _): throw Refusal(code: .invalidOperator)
        case (.allRecords, _): return records
        case (.firstRecord, _): return Array(records.prefix(1))
        case (.lastRecord, _): return Array(records.suffix(1))
        case (.lessThanOrEqualTo, .filter(.sequenceNumber, let maximum)):
            return records.filter { UInt32($0.sequence) <= maximum }
        case (.greaterThanOrEqualTo, .filter(.sequenceNumber, let minimum)):
            return records.filter { UInt32($0.sequence) >= minimum }
        case (.withinRangeOf, .range(.sequenceNumber, let minimum, let maximum)):
            guard minimum <= maximum else { throw Refusal(code: .invalidOperand) }
            return records.filter { (minimum...maximum).contains(UInt32($0.sequence)) }
        default:
            // Filters on User Facing Time or on Omron's sequence numbers: not this cuff's.
            throw Refusal(code: .operandNotSupported)
        }
    }
}
