/// The E2E-CRC a BPS 1.1 cuff whose Feature has bit 6 appends to each record (docs/reference/GATT-HEALTH.md §7):
/// CRC-16/MCRF4XX — polynomial 0x1021 reflected (0x8408), initial value 0xFFFF, no final XOR — as the
/// MED working group's CGMS uses it (Nordic Android-BLE-Library `CGMFeatureDataCallback.java`). Unverified
/// for BPS; cuffd keeps the CRC and does not check it. Catalogue check value (CRC RevEng): "123456789" →
/// 0x6F91.
enum RecordCRC {
    static func mcrf4xx(_ bytes: some Sequence<UInt8>) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0x8408 : crc >> 1
            }
        }
        return crc
    }

    /// `value` followed by its CRC, least significant byte first.
    static func appended(to value: [UInt8]) -> [UInt8] {
        let crc = mcrf4xx(value)
        return value + [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8)]
    }
}
