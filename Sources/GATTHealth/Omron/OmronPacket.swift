/// One packet of Omron's transport (docs/omron.md §3; omblepy `README.md` "command types", `omblepy.py`):
/// length, type, big-endian address, data length, data, a status byte and a check byte that makes the XOR
/// of the whole packet 0.
public struct OmronPacket: Hashable, Sendable {
    /// Bytes 1–2.
    public var type: UInt16
    /// Bytes 3–4, a memory address.
    public var address: UInt16
    /// Byte 5: the bytes asked for (a read) or carried (a write, a read's answer).
    public var count: UInt8
    public var data: [UInt8]
    /// The byte before the check byte: 0 in commands, a status in the end-of-transmission answer.
    public var status: UInt8

    /// The packet types (docs/omron.md §3).
    public enum Kind {
        public static let start: UInt16 = 0x0000
        public static let startAnswer: UInt16 = 0x8000
        public static let read: UInt16 = 0x0100
        public static let readAnswer: UInt16 = 0x8100
        public static let write: UInt16 = 0x01C0
        public static let writeAnswer: UInt16 = 0x81C0
        public static let end: UInt16 = 0x0F00
        public static let endAnswer: UInt16 = 0x8F00
    }

    /// Header (6) plus status and check byte (2).
    public static let overhead = 8
    /// Four channels of 16 bytes; on the 0xFE4A service the same bound (hass-omron's largest block, 0x2C, makes
    /// packets of 52 bytes).
    public static let maximumLength = 64

    public init(type: UInt16, address: UInt16 = 0, count: UInt8? = nil, data: [UInt8] = [], status: UInt8 = 0) {
        self.type = type
        self.address = address
        self.count = count ?? UInt8(truncatingIfNeeded: data.count)
        self.data = data
        self.status = status
    }

    /// Start of transmission, `08 00 00 00 00 10 00 18` in omblepy.
    public static let start = OmronPacket(type: Kind.start, count: 0x10)
    /// End of transmission, `08 0F 00 00 00 00 00 07` in omblepy.
    public static let end = OmronPacket(type: Kind.end)

    /// A read of `count` bytes at `address`.
    public static func read(_ address: UInt16, count: UInt8) -> OmronPacket {
        OmronPacket(type: Kind.read, address: address, count: count)
    }

    /// A write of `data` at `address`.
    public static func write(_ address: UInt16, _ data: [UInt8]) -> OmronPacket {
        OmronPacket(type: Kind.write, address: address, data: data)
    }

    /// The wire bytes, check byte included.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [UInt8(truncatingIfNeeded: Self.overhead + data.count), UInt8(type >> 8), UInt8(type & 0xFF),
                              UInt8(address >> 8), UInt8(address & 0xFF), count]
        bytes += data
        bytes.append(status)
        bytes.append(bytes.reduce(0, ^))
        return bytes
    }

    /// Decodes one whole packet: its length byte within 8…64, that many bytes present (more are ignored),
    /// a zero XOR.
    public init(decoding bytes: [UInt8]) throws(OmronError) {
        guard let first = bytes.first else { throw .truncated(required: Self.overhead, actual: 0) }
        let length = Int(first)
        guard (Self.overhead ... Self.maximumLength).contains(length) else { throw .badLength(first) }
        guard bytes.count >= length else { throw .truncated(required: length, actual: bytes.count) }
        let packet = bytes[0 ..< length]
        let check = packet.reduce(0, ^)
        guard check == 0 else { throw .badChecksum(check) }
        type = UInt16(packet[1]) << 8 | UInt16(packet[2])
        address = UInt16(packet[3]) << 8 | UInt16(packet[4])
        count = packet[5]
        data = Array(packet[6 ..< length - 2])
        status = packet[length - 2]
    }

    /// The packet in pieces for `stack`'s channels, piece *k* for channel *k*: 16 bytes each on the classic
    /// service, one piece on 0xFE4A (docs/omron.md §3).
    public func pieces(_ stack: OmronStack = .classic) -> [[UInt8]] {
        encoded().pieces(of: stack.pieceSize)
    }

    /// Checks that this is the answer to `request`: the answer type (request type with bit 15 set), the same
    /// address for reads and writes, as many data bytes as asked for, and a zero status at the end.
    public func validate(answering request: OmronPacket) throws(OmronError) {
        guard type == request.type | 0x8000 else { throw .unexpectedType(type) }
        switch request.type {
        case Kind.read, Kind.write:
            guard address == request.address else { throw .unexpectedAddress(address) }
            if request.type == Kind.read, data.count != Int(request.count) {
                throw .truncated(required: Int(request.count), actual: data.count)
            }
        case Kind.end:
            guard status == 0 else { throw .status(status) }
        default:
            break
        }
    }
}
