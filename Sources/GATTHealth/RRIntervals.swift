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
    @inlinable public static var capacity: Int { 16 }

    /// Sixteen UInt16 in four words, interval `i` in bits `16 * (i % 4)` of word `i / 4`: zeroing and
    /// copying them is four plain moves. The bits past ``count`` are never read: a decoded list leaves there
    /// whatever its frame held after the intervals (``HeartRateMeasurement/rrIntervals``).
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
