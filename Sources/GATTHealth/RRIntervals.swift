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

    /// Sixteen little-endian UInt16 in four words: zeroing and copying them is four plain moves.
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    @usableFromInline var storedCount = 0

    /// How many intervals the list holds.
    public var count: Int { storedCount }

    /// A list of the given values; at most ``capacity`` are kept.
    public init(_ list: some Sequence<UInt16>) {
        for value in list.prefix(Self.capacity) {
            set(value, at: storedCount)
            storedCount += 1
        }
    }

    /// Reads up to ``capacity`` little-endian pairs from `reader`, packing them into the words with shifts
    /// (a byte copy here would become a call to memcpy for a handful of bytes).
    /// Reads `pairs` (≤ ``capacity``) little-endian intervals from `reader`: four at a time as one 64-bit
    /// word, then the last one to three assembled with shifts (a plain element loop here becomes a call
    /// to memcpy for a handful of bytes).
    @inlinable @inline(__always)
    init(reading reader: inout ByteReader, pairs: Int) {
        storedCount = pairs
        var index = 0
        while pairs &- index >= 4 {
            setWord(reader.uint64(), at: index >> 2)
            index &+= 4
        }
        let rest = pairs &- index
        guard rest > 0 else { return }
        var word = UInt64(reader.uint16())
        if rest > 1 { word |= UInt64(reader.uint16()) << 16 }
        if rest > 2 { word |= UInt64(reader.uint16()) << 32 }
        setWord(word, at: index >> 2)
    }

    @inlinable @inline(__always)
    mutating func setWord(_ word: UInt64, at index: Int) {
        if index == 0 {
            words.0 = word
        } else if index == 1 {
            words.1 = word
        } else if index == 2 {
            words.2 = word
        } else {
            words.3 = word
        }
    }

    @inlinable @inline(__always)
    mutating func set(_ value: UInt16, at index: Int) {
        withUnsafeMutableBytes(of: &words) { $0.storeBytes(of: value.littleEndian, toByteOffset: index &* 2, as: UInt16.self) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> UInt16 {
        precondition(position >= 0 && position < count, "RR-interval index out of range")
        return withUnsafeBytes(of: words) { UInt16(littleEndian: $0.load(fromByteOffset: position &* 2, as: UInt16.self)) }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for value in self { hasher.combine(value) }
    }
}
