/// Appends little-endian fields to a growing frame; the encoders' counterpart of ``ByteReader``.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 20) { bytes.reserveCapacity(capacity) }

    mutating func uint8(_ value: UInt8) { bytes.append(value) }

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func uint16BigEndian(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func uint24(_ value: UInt32) {
        uint16(UInt16(truncatingIfNeeded: value))
        uint8(UInt8(truncatingIfNeeded: value >> 16))
    }

    mutating func uint32(_ value: UInt32) {
        uint16(UInt16(truncatingIfNeeded: value))
        uint16(UInt16(truncatingIfNeeded: value >> 16))
    }

    mutating func uint40(_ value: UInt64) {
        uint32(UInt32(truncatingIfNeeded: value))
        uint8(UInt8(truncatingIfNeeded: value >> 32))
    }

    mutating func medFloat16(_ value: MedFloat16) { uint16(value.bitPattern) }

    mutating func medFloat32(_ value: MedFloat32) { uint32(value.bitPattern) }

    mutating func dateTime(_ value: DateTime) {
        uint16(value.year)
        for field in [value.month, value.day, value.hours, value.minutes, value.seconds] { uint8(field) }
    }

    mutating func append(contentsOf other: some Sequence<UInt8>) { bytes.append(contentsOf: other) }
}
