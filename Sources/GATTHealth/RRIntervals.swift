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

    private var values: InlineArray<16, UInt16> = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    public private(set) var count = 0

    /// A list of the given values; at most ``capacity`` are kept.
    public init(_ list: some Sequence<UInt16>) {
        for value in list.prefix(Self.capacity) {
            values[count] = value
            count += 1
        }
    }

    /// Reads up to ``capacity`` little-endian pairs from `reader`.
    @inline(__always)
    init(reading reader: inout ByteReader, pairs: Int) {
        count = pairs
        for index in 0 ..< pairs { values[unchecked: index] = reader.uint16() }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> UInt16 {
        precondition(position >= 0 && position < count, "RR-interval index out of range")
        return values[unchecked: position]
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for value in self { hasher.combine(value) }
    }
}
