/// A Heart Rate Measurement frame (docs/reference/GATT-HEALTH.md §9) held inline: its first ``capacity`` bytes —
/// flags, a uint16 value, Energy Expended and sixteen RR-Intervals take 37 — as five little-endian words, zero past
/// the frame, and the length of the whole frame. Trivially copyable: keeping one allocates nothing.
@usableFromInline
struct HeartRateFrame: Sendable {
    /// The bytes kept.
    @inlinable static var capacity: Int { 40 }

    /// Byte `i` in bits `8 * (i % 8)` of word `i / 8`.
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64, UInt64)
    /// The frame's length, its bytes past ``capacity`` included.
    @usableFromInline var length: Int

    /// The first bytes of `bytes`, a frame of at least 2 (flags and a uint8 value), without a loop or a call to
    /// memcpy: each word one 8-byte load, and one the frame fills in part the 8 bytes that end where the kept bytes
    /// end, shifted down; a frame shorter than a word is read by two overlapping 4-byte loads, or a 2-byte one. No
    /// load reaches outside `bytes`. A frame of 9 to 16 bytes — a strap's usual one to five intervals — takes one
    /// test: its two words are the first eight bytes and the last eight shifted down.
    @inlinable @inline(__always)
    init(_ bytes: UnsafeRawBufferPointer) {
        length = bytes.count
        if _fastPath(UInt(bitPattern: bytes.count &- 9) < 8) {
            let second = bytes.littleEndian(UInt64.self, at: bytes.count &- 8) &>> ((16 &- bytes.count) &* 8)
            words = (bytes.littleEndian(UInt64.self, at: 0), second, 0, 0, 0)
            return
        }
        let end = Swift.min(bytes.count, Self.capacity)
        guard end >= 8 else {
            var word: UInt64
            if end >= 4 {
                let first = UInt64(bytes.littleEndian(UInt32.self, at: 0))
                let last = UInt64(bytes.littleEndian(UInt32.self, at: end &- 4))
                word = first | last &<< ((end &- 4) &* 8)
            } else {
                word = UInt64(bytes.littleEndian(UInt16.self, at: 0))
                if end == 3 { word |= UInt64(bytes[2]) &<< 16 }
            }
            words = (word, 0, 0, 0, 0)
            return
        }
        /// Word `index`: whole, the kept bytes' last eight shifted down, or zero past them.
        @inline(__always) func word(_ index: Int) -> UInt64 {
            let from = index &* 8
            if from &+ 8 <= end { return bytes.littleEndian(UInt64.self, at: from) }
            if from < end { return bytes.littleEndian(UInt64.self, at: end &- 8) &>> ((from &+ 8 &- end) &* 8) }
            return 0
        }
        words = (bytes.littleEndian(UInt64.self, at: 0), word(1), word(2), word(3), word(4))
    }

    /// Word `index` (0–4).
    @inlinable @inline(__always)
    func word(_ index: Int) -> UInt64 {
        withUnsafeBytes(of: words) { $0.load(fromByteOffset: index &* 8, as: UInt64.self) }
    }

    /// The eight bytes from `offset` + 8 × `index` (`offset` 1 to 7, `index` 0 to 3): word `index` shifted down by
    /// `offset` bytes, the next word's low bytes above it — no load, as the words are kept in little-endian order.
    @inlinable @inline(__always)
    func word(_ index: Int, from offset: Int) -> UInt64 {
        let shift = UInt64(truncatingIfNeeded: offset &* 8)
        return word(index) &>> shift | word(index &+ 1) &<< (64 &- shift)
    }

    /// Byte `index` (below ``capacity``).
    @inlinable @inline(__always)
    func byte(_ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word(index >> 3) &>> ((index & 7) &* 8)) }

    /// `body` over the ``capacity`` bytes kept, little-endian as they came.
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var words = (words.0.littleEndian, words.1.littleEndian, words.2.littleEndian, words.3.littleEndian, words.4.littleEndian)
        return withUnsafeBytes(of: &words) { body($0) }
    }
}
