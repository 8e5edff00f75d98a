/// Record Access Control Point 0x2A52: requests written by the client and the responses the server
/// indicates (gatt-xml `record_access_control_point.xml`; Omron's 0x10/0x11 extension from
/// StanfordSpezi/SpeziDevices `RecordAccessOpCode+Omron.swift`; docs/reference/GATT-HEALTH.md §8).
/// A value is `op code, operator, operand…`. RACP manages stored records only; it starts no measurement.
public struct RecordAccessControlPoint: Hashable, Sendable, GATTCharacteristicValue {
    public static let characteristic = HealthCharacteristic.recordAccessControlPoint

    /// RACP op codes.
    public enum OpCode: UInt8, Hashable, Sendable {
        case reportStoredRecords = 0x01
        case deleteStoredRecords = 0x02
        case abortOperation = 0x03
        case reportNumberOfStoredRecords = 0x04
        case numberOfStoredRecordsResponse = 0x05
        case responseCode = 0x06
        /// Omron Option Service only: report the sequence number of the latest record.
        case omronReportLatestSequenceNumber = 0x10
        /// Omron Option Service only: its response.
        case omronLatestSequenceNumberResponse = 0x11
    }

    /// RACP operators.
    public enum Operator: UInt8, Hashable, Sendable {
        case null = 0x00
        case allRecords = 0x01
        case lessThanOrEqualTo = 0x02
        case greaterThanOrEqualTo = 0x03
        case withinRangeOf = 0x04
        case firstRecord = 0x05
        case lastRecord = 0x06
    }

    /// What a filter compares (first operand byte of operators 0x02–0x04).
    public enum FilterType: UInt8, Hashable, Sendable {
        /// uint16 (StanfordSpezi/SpeziBluetooth `RecordAccessFilterType.swift`).
        case sequenceNumber = 0x01
        /// uint32 seconds, as the BPS 1.1 User Facing Time field (unverified for RACP).
        case userFacingTime = 0x02
        /// Omron's per-user sequence number, uint16 (SpeziDevices `OmronRecordAccessOperand.swift`).
        case omronSequenceNumber = 0x04

        var valueLength: Int { self == .userFacingTime ? 4 : 2 }
    }

    /// Response Code values (op code 0x06).
    public enum ResponseCodeValue: UInt8, Hashable, Sendable {
        case success = 0x01
        case opCodeNotSupported = 0x02
        case invalidOperator = 0x03
        case operatorNotSupported = 0x04
        case invalidOperand = 0x05
        case noRecordsFound = 0x06
        case abortUnsuccessful = 0x07
        case procedureNotCompleted = 0x08
        case operandNotSupported = 0x09
    }

    /// The operand, shaped by op code and operator.
    public enum Operand: Hashable, Sendable {
        case none
        /// Operators ≤ and ≥: one value.
        case filter(FilterType, UInt32)
        /// Operator "within range of": minimum and maximum, inclusive.
        case range(FilterType, minimum: UInt32, maximum: UInt32)
        /// Op code 0x05.
        case numberOfRecords(UInt16)
        /// Op code 0x06: the request it answers and the outcome. The outcome is kept raw when unknown.
        case response(request: UInt8, code: UInt8)
        /// Op code 0x11.
        case sequenceNumber(UInt16)
    }

    public var opCode: OpCode
    public var `operator`: Operator
    public var operand: Operand
    /// Bytes after the operand: ignored, and counted here.
    public var trailingByteCount: Int

    /// A value to encode.
    public init(opCode: OpCode, operator: Operator, operand: Operand = .none) {
        self.opCode = opCode
        self.operator = `operator`
        self.operand = operand
        trailingByteCount = 0
    }

    /// "Report stored records with sequence number ≥ n", the request that downloads what is new.
    public static func reportRecords(fromSequenceNumber sequenceNumber: UInt16) -> Self {
        Self(opCode: .reportStoredRecords, operator: .greaterThanOrEqualTo, operand: .filter(.sequenceNumber, UInt32(sequenceNumber)))
    }

    /// The Response Code outcome, when it is one this decoder knows.
    public var responseCodeValue: ResponseCodeValue? {
        guard case let .response(_, code) = operand else { return nil }
        return ResponseCodeValue(rawValue: code)
    }

    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        try requireLength(2, of: bytes, for: Self.characteristic)
        var reader = ByteReader(bytes)
        let rawOpCode = reader.uint8()
        guard let opCode = OpCode(rawValue: rawOpCode) else {
            throw GATTDecodingError(Self.characteristic, .unsupportedOpCode(rawOpCode))
        }
        let rawOperator = reader.uint8()
        guard let op = Operator(rawValue: rawOperator) else {
            throw GATTDecodingError(Self.characteristic, .unsupportedOperator(rawOperator))
        }
        self.opCode = opCode
        self.operator = op
        switch opCode {
        case .reportStoredRecords, .deleteStoredRecords, .reportNumberOfStoredRecords:
            operand = try Self.decodeFilter(op, &reader, bytes)
        case .abortOperation, .omronReportLatestSequenceNumber:
            operand = .none
        case .numberOfStoredRecordsResponse:
            try requireLength(4, of: bytes, for: Self.characteristic)
            operand = .numberOfRecords(reader.uint16())
        case .responseCode:
            try requireLength(4, of: bytes, for: Self.characteristic)
            operand = .response(request: reader.uint8(), code: reader.uint8())
        case .omronLatestSequenceNumberResponse:
            try requireLength(4, of: bytes, for: Self.characteristic)
            operand = .sequenceNumber(reader.uint16())
        }
        trailingByteCount = reader.remaining
    }

    private static func decodeFilter(
        _ op: Operator, _ reader: inout ByteReader, _ bytes: UnsafeRawBufferPointer
    ) throws(GATTDecodingError) -> Operand {
        switch op {
        case .null, .allRecords, .firstRecord, .lastRecord:
            return .none
        case .lessThanOrEqualTo, .greaterThanOrEqualTo, .withinRangeOf:
            try requireLength(3, of: bytes, for: characteristic)
            let rawType = reader.uint8()
            guard let type = FilterType(rawValue: rawType) else {
                throw GATTDecodingError(characteristic, .unsupportedFilterType(rawType))
            }
            let valueCount = op == .withinRangeOf ? 2 : 1
            try requireLength(3 + valueCount * type.valueLength, of: bytes, for: characteristic)
            let first = type.valueLength == 4 ? reader.uint32() : UInt32(reader.uint16())
            guard op == .withinRangeOf else { return .filter(type, first) }
            let second = type.valueLength == 4 ? reader.uint32() : UInt32(reader.uint16())
            return .range(type, minimum: first, maximum: second)
        }
    }

    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 11)
        writer.uint8(opCode.rawValue)
        writer.uint8(`operator`.rawValue)
        switch operand {
        case .none:
            break
        case let .filter(type, value):
            writer.uint8(type.rawValue)
            Self.write(value, as: type, into: &writer)
        case let .range(type, minimum, maximum):
            writer.uint8(type.rawValue)
            Self.write(minimum, as: type, into: &writer)
            Self.write(maximum, as: type, into: &writer)
        case let .numberOfRecords(count):
            writer.uint16(count)
        case let .response(request, code):
            writer.uint8(request)
            writer.uint8(code)
        case let .sequenceNumber(number):
            writer.uint16(number)
        }
        return writer.bytes
    }

    private static func write(_ value: UInt32, as type: FilterType, into writer: inout ByteWriter) {
        if type.valueLength == 4 { writer.uint32(value) } else { writer.uint16(UInt16(truncatingIfNeeded: value)) }
    }
}
