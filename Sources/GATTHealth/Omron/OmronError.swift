/// Why Omron bytes were refused (docs/omron.md §3, §5).
public enum OmronError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer bytes than the packet or record needs.
    case truncated(required: Int, actual: Int)
    /// The XOR over the packet is not 0.
    case badChecksum(UInt8)
    /// A length byte outside 8…64.
    case badLength(UInt8)
    /// A response of another type than the one asked for.
    case unexpectedType(UInt16)
    /// A response for another address than the one asked for.
    case unexpectedAddress(UInt16)
    /// An end-of-transmission answer with a non-zero status.
    case status(UInt8)
    /// A record slot never written, or erased: all `FF` (docs/omron.md §5).
    case erasedSlot
    /// A record whose date or time is not a real one (month 13, 31 April, hour 24, minute 60).
    case impossibleDate(DateTime)

    public var description: String {
        switch self {
        case let .truncated(required, actual): "truncated: \(actual) bytes, \(required) needed"
        case let .badChecksum(value): "bad checksum: the XOR over the packet is 0x\(Hex.digits(value)), not 0"
        case let .badLength(value): "packet length \(value) is outside 8…64"
        case let .unexpectedType(type): "unexpected packet type 0x\(Hex.digits(type))"
        case let .unexpectedAddress(address): "response for address 0x\(Hex.digits(address)), not the one asked for"
        case let .status(code): "the cuff ended the transmission with status \(code)"
        case .erasedSlot: "an erased slot (all FF)"
        case let .impossibleDate(time): "an impossible date \(time.year)-\(time.month)-\(time.day) \(time.hours):\(time.minutes)"
        }
    }
}
