/// Why Microlife bytes, or a patient ID for one, were refused (docs/reference/GATT-HEALTH.md §13.12).
public enum MicrolifeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer bytes than the frame or answer needs.
    case truncated(required: Int, actual: Int)
    /// A frame that does not start `4D 3A` ("M:", the cuff's) or `4D FF` (the host's), as the side reading it expects.
    case badStart([UInt8])
    /// More bytes than the length field announced.
    case overlong(announced: Int, actual: Int)
    /// The checksum byte is not the low 8 bits of the sum of the bytes before it.
    case badChecksum(expected: UInt8, actual: UInt8)
    /// An acknowledgement other than `81`.
    case notAcknowledged([UInt8])
    /// A readings answer whose records do not fill whole 10-byte slots after the 38-byte head.
    case partialRecord(payloadLength: Int)
    /// A selected user other than 1 or 2.
    case unknownUser(UInt8)
    /// A record whose date or time is not a real one.
    case impossibleDate(DateTime)
    /// A date the cuff's clock cannot hold (its year is one byte after 2000).
    case yearOutOfRange(UInt16)
    /// A patient ID longer than 20 characters or with a character that is not printable ASCII.
    case invalidPatientID(String)

    public var description: String {
        switch self {
        case let .truncated(required, actual): "truncated: \(actual) bytes, \(required) needed"
        case let .badStart(bytes): "a frame starting \(Hex.bytes(bytes)), not the 4D 3A of an answer or the 4D FF of a command"
        case let .overlong(announced, actual): "\(actual) bytes where the length field announced \(announced)"
        case let .badChecksum(expected, actual):
            "bad checksum 0x\(Hex.digits(actual)): the bytes before it sum to 0x\(Hex.digits(expected))"
        case let .notAcknowledged(payload): "the cuff answered \(Hex.bytes(payload)), not the acknowledgement 81"
        case let .partialRecord(length): "a readings answer of \(length) bytes: not a 38-byte head and whole 10-byte records"
        case let .unknownUser(user): "selected user \(user), not 1 or 2"
        case let .impossibleDate(time): "an impossible date \(time.year)-\(time.month)-\(time.day) \(time.hours):\(time.minutes)"
        case let .yearOutOfRange(year): "the year \(year) is outside the 2000–2255 the cuff's clock holds"
        case let .invalidPatientID(id):
            "the patient ID \"\(id)\" is not up to \(MicrolifeCommand.patientIDLength) printable ASCII characters"
        }
    }
}
