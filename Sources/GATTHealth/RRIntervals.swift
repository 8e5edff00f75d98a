/// The RR-Interval list of a Heart Rate Measurement, in units of 1/1024 s, oldest first.
///
/// Stored inline and trivially copyable, so decoding never allocates or reference-counts. Sixteen
/// intervals fit: more than a default-MTU notification can carry (a 20-byte payload holds at most 9) and
/// more than a strap sends in one (0 to ~5, one per beat, notified about once a second; HRS §3.1.1.5 as
/// quoted in polarofficial/polar-ble-sdk #80). A frame with more — possible only with a large ATT MTU —
/// keeps the oldest sixteen here and counts the rest in ``HeartRateMeasurement/omittedRRIntervalCount``;
/// the raw payload still holds them.
public struct RRIntervals: RandomAccessCollection, Hashable, Sendable {
    /// The intervals one value keeps.
    public static let capacity = 16

    /// Sixteen UInt16 in four words, interval `i` in bits `16 * (i % 4)` of word `i / 4`: zeroing and
    /// copying them is four plain moves.
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    @usableFromInline var storedCount = 0

    /// How many intervals the list holds.
    public var count: Int { storedCount }

    /// A list of the given values; at most ``capacity`` are kept.
    public init(_ list: some Sequence<UInt16>) {
        for value in list.prefix(Self.capacity) {
            let offset = (storedCount >> 2) &* 8, shift = (storedCount & 3) &* 16
            withUnsafeMutableBytes(of: &words) { words in
                let word = words.load(fromByteOffset: offset, as: UInt64.self)
                words.storeBytes(of: word | UInt64(value) &<< shift, toByteOffset: offset, as: UInt64.self)
            }
            storedCount += 1
        }
    }

    /// Reads `count` (4 to ``capacity``) little-endian intervals at `start` of `bytes`, which holds them all,
    /// without a loop or a branch per interval (an element loop here becomes a call to memcpy for a
    /// handful of bytes): each word is one 8-byte load, and a word the list fills only in part is the 8
    /// bytes that end where the list ends, shifted down. No load reaches outside the intervals' own bytes.
    @inlinable @inline(__always)
    init(_ bytes: UnsafeRawBufferPointer, from start: Int, fourOrMore count: Int) {
        let end = start &+ count &* 2
        /// Word `index`: whole, the list's last bytes shifted down, or zero past the list.
        @inline(__always) func word(_ index: Int) -> UInt64 {
            let from = start &+ index &* 8
            if from &+ 8 <= end { return bytes.littleEndian(UInt64.self, at: from) }
            if from < end { return bytes.littleEndian(UInt64.self, at: end &- 8) &>> ((from &+ 8 &- end) &* 8) }
            return 0
        }
        self.init(words: (bytes.littleEndian(UInt64.self, at: start), word(1), word(2), word(3)), count: count)
    }

    /// Reads `count` (≤ 4) little-endian intervals at `start` of `bytes` into the first word: two 4-byte
    /// loads that overlap when there are three intervals, or one 2-byte load for a single interval.
    @inlinable @inline(__always)
    init(_ bytes: UnsafeRawBufferPointer, from start: Int, upToFour count: Int) {
        let length = count &* 2
        var word: UInt64 = 0
        if length >= 4 {
            let first = UInt64(bytes.littleEndian(UInt32.self, at: start))
            let last = UInt64(bytes.littleEndian(UInt32.self, at: start &+ length &- 4))
            word = first | last &<< ((length &- 4) &* 8)
        } else if length == 2 {
            word = UInt64(bytes.littleEndian(UInt16.self, at: start))
        }
        self.init(words: (word, 0, 0, 0), count: count)
    }

    @inlinable @inline(__always)
    init(words: (UInt64, UInt64, UInt64, UInt64), count: Int) {
        self.words = words
        storedCount = count
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> UInt16 {
        precondition(position >= 0 && position < count, "RR-interval index out of range")
        let word = withUnsafeBytes(of: words) { $0.load(fromByteOffset: (position >> 2) &* 8, as: UInt64.self) }
        return UInt16(truncatingIfNeeded: word &>> ((position & 3) &* 16))
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for value in self { hasher.combine(value) }
    }
}
