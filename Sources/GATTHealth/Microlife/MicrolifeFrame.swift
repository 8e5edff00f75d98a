/// An answer frame a Microlife cuff notifies (docs/reference/GATT-HEALTH.md §13.12; joergmlpts/
/// blood-pressure-monitor `bpm_bt.py`): `4D 3A` ("M:"), a big-endian length counting every byte after itself,
/// the payload, and a checksum, the low 8 bits of the sum of every byte before it.
public enum MicrolifeFrame {
    /// `4D 3A`, the length (2) and the checksum (1).
    public static let overhead = 5
    /// What starts a frame the cuff sends, `4D 3A` ("M:").
    public static let answerStart: [UInt8] = [0x4D, 0x3A]
    /// What starts a frame the host writes, `4D FF`.
    public static let commandStart: [UInt8] = [0x4D, 0xFF]
    /// The payload of an acknowledged *set* command.
    public static let acknowledgement: [UInt8] = [0x81]

    /// The low 8 bits of the sum of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt8 {
        bytes.reduce(0, &+)
    }

    /// The frame length the first four bytes announce, nil while fewer are present.
    public static func announcedLength(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (Int(bytes[2]) << 8 | Int(bytes[3])) + 4
    }

    /// `start`, the length of what follows, `body` and the checksum: a whole frame.
    public static func encoded(start: [UInt8], _ body: [UInt8]) -> [UInt8] {
        let length = body.count + 1
        var bytes = start + [UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)] + body
        bytes.append(checksum(bytes))
        return bytes
    }

    /// The answer frame carrying `payload`, as the cuff notifies it.
    public static func answer(_ payload: [UInt8]) -> [UInt8] {
        encoded(start: answerStart, payload)
    }

    /// The payload of one whole frame that begins with `start` (an answer's, unless told): its start, its length
    /// exactly met, its checksum right.
    public static func payload(decoding bytes: [UInt8], start: [UInt8] = answerStart) throws(MicrolifeError) -> [UInt8] {
        guard bytes.starts(with: start) else { throw .badStart(Array(bytes.prefix(2))) }
        guard let length = announcedLength(bytes) else { throw .truncated(required: overhead, actual: bytes.count) }
        // A length field below 1 announces a frame without room for its checksum.
        guard length >= overhead else { throw .truncated(required: overhead, actual: length) }
        guard bytes.count >= length else { throw .truncated(required: length, actual: bytes.count) }
        guard bytes.count == length else { throw .overlong(announced: length, actual: bytes.count) }
        let expected = checksum(bytes.dropLast())
        guard expected == bytes[length - 1] else { throw .badChecksum(expected: expected, actual: bytes[length - 1]) }
        return Array(bytes[4 ..< length - 1])
    }

    /// Checks that `payload` is the acknowledgement `81` that *set date and time* and *set patient ID* bring.
    public static func validateAcknowledgement(_ payload: [UInt8]) throws(MicrolifeError) {
        guard payload == acknowledgement else { throw .notAcknowledged(payload) }
    }
}
