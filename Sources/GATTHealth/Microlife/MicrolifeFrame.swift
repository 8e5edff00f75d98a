/// An answer frame a Microlife cuff notifies (docs/reference/GATT-HEALTH.md §13.12; joergmlpts/
/// blood-pressure-monitor `bpm_bt.py`): `4D 3A` ("M:"), a big-endian length counting every byte after itself,
/// the payload, and a checksum, the low 8 bits of the sum of every byte before it.
public enum MicrolifeFrame {
    /// `4D 3A`, the length (2) and the checksum (1).
    public static let overhead = 5
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

    /// The payload of one whole answer frame: its start, its length exactly met, its checksum right.
    public static func payload(decoding bytes: [UInt8]) throws(MicrolifeError) -> [UInt8] {
        guard bytes.count >= 2, bytes[0] == 0x4D, bytes[1] == 0x3A else { throw .badStart(Array(bytes.prefix(2))) }
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
