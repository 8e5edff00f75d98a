/// Why a characteristic value could not be decoded.
///
/// Decoders never guess: the length a frame must have is computed from its flags before any field is
/// read, and a frame that is shorter, or that announces something impossible, is this error.
public struct GATTDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the bytes.
    public enum Problem: Hashable, Sendable {
        /// The frame has `actual` bytes; its flags (or its fixed layout) need at least `required`.
        case truncated(required: Int, actual: Int)
        /// An op code the decoder does not know (Record Access Control Point, docs/reference/GATT-HEALTH.md §8).
        case unsupportedOpCode(UInt8)
        /// An operator that the op code does not allow, or that the decoder does not know.
        case unsupportedOperator(UInt8)
        /// A Record Access Control Point filter type the decoder does not know.
        case unsupportedFilterType(UInt8)
        /// A Blood Pressure Record segment whose rolling counter does not follow the previous one.
        case segmentOutOfOrder(expected: UInt8, actual: UInt8)
        /// A Blood Pressure Record segment that continues a record whose first segment never came.
        case segmentWithoutFirst
        /// A Blood Pressure Record that holds a characteristic other than 0x2A35 or 0x2B34.
        case unsupportedRecordedCharacteristic(UInt16)
    }

    /// The characteristic whose value was being decoded; nil for a bare SFLOAT or FLOAT.
    public let characteristic: HealthCharacteristic?
    /// What is wrong.
    public let problem: Problem

    /// Creates an error for `characteristic`.
    @inlinable
    public init(_ characteristic: HealthCharacteristic?, _ problem: Problem) {
        self.characteristic = characteristic
        self.problem = problem
    }

    /// True when the frame was shorter than its flags or layout require.
    public var isTruncation: Bool {
        if case .truncated = problem { return true }
        return false
    }

    /// One line naming the characteristic and the problem.
    public var description: String {
        let subject = characteristic.map { "\($0.name) (0x\($0.shortUUID))" } ?? "value"
        switch problem {
        case let .truncated(required, actual):
            return "\(subject): \(actual) byte\(actual == 1 ? "" : "s"), but its flags and layout need at least \(required)"
        case let .unsupportedOpCode(code):
            return "\(subject): unsupported op code 0x\(Hex.digits(code))"
        case let .unsupportedOperator(code):
            return "\(subject): unsupported operator 0x\(Hex.digits(code)) for this op code"
        case let .unsupportedFilterType(code):
            return "\(subject): unsupported filter type 0x\(Hex.digits(code))"
        case let .segmentOutOfOrder(expected, actual):
            return "\(subject): segment counter \(actual) where \(expected) was expected"
        case .segmentWithoutFirst:
            return "\(subject): a continuation segment arrived before any first segment"
        case let .unsupportedRecordedCharacteristic(uuid):
            return "\(subject): holds characteristic 0x\(Hex.digits(uuid)), which cannot be decoded here"
        }
    }
}
