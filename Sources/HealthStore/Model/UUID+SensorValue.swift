import Foundation

extension UUID {
    /// The UUID of a sensor's value stored in a quantity series (docs/health-store.md, "Heart-rate series"): derived
    /// from the value's sync identifier and time alone, so that the same value always has the same UUID however its
    /// values are grouped into series rows — a version-8 UUID (RFC 9562 §5.8) whose first 60 custom bits are the
    /// value's time in microseconds since 1970 (so that the store finds its series row by the UUID alone) and whose last
    /// 62 are a hash (64-bit FNV-1a) of its sync identifier.
    public static func sensorValue(syncIdentifier: String, at start: Date) -> UUID {
        sensorValue(syncIdentifier: syncIdentifier, micros: SQLiteCoding.micros(start))
    }

    static func sensorValue(syncIdentifier: String, micros: Int64) -> UUID {
        let time = UInt64(bitPattern: micros) & 0x0FFF_FFFF_FFFF_FFFF
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in syncIdentifier.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        let high = (time >> 12) << 16 | 0x8000 | time & 0x0FFF
        let low = 0x8000_0000_0000_0000 | hash & 0x3FFF_FFFF_FFFF_FFFF
        return withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { UUID(uuid: $0.load(as: uuid_t.self)) }
    }

    /// The time in microseconds that ``sensorValue(syncIdentifier:at:)`` put in this UUID, when it is of that version.
    var sensorValueMicros: Int64? {
        let (high, low) = byteOrder
        guard high & 0xF000 == 0x8000, low >> 62 == 2 else { return nil }
        return Int64(bitPattern: (high >> 16) << 12 | high & 0x0FFF)
    }
}
