/// SHA-1 (FIPS 180-4 §6.1), only to name UUIDs by their content (RFC 9562 §5.5, ``NameBasedUUID``): not for
/// anything that needs a secure hash. Three UUIDs a reading in a FHIR export: its words are read from the padded
/// message in place and its schedule kept on the stack, so a digest allocates only its padded copy and its result.
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        var padded = message
        padded.reserveCapacity(message.count + 72)
        padded.append(0x80)
        padded += repeatElement(0, count: (56 - padded.count % 64 + 64) % 64)
        let bits = UInt64(message.count) * 8
        for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            padded.withUnsafeBytes { bytes in
                for block in stride(from: 0, to: bytes.count, by: 64) {
                    for t in 0..<16 { w[t] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: block + 4 * t, as: UInt32.self)) }
                    for t in 16..<80 { w[t] = rotate(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1) }
                    var (a, b, c, d, e) = h
                    for t in 0..<80 {
                        let (f, k): (UInt32, UInt32) = switch t {
                        case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                        case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                        case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                        default: (b ^ c ^ d, 0xCA62_C1D6)
                        }
                        let temp = rotate(a, 5) &+ f &+ e &+ k &+ w[t]
                        (e, d, c, b, a) = (d, c, rotate(b, 30), a, temp)
                    }
                    h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
                }
            }
        }
        var result: [UInt8] = []
        result.reserveCapacity(20)
        for word in [h.0, h.1, h.2, h.3, h.4] { withUnsafeBytes(of: word.bigEndian) { result += $0 } }
        return result
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value << count | value >> (32 - count) }
}
