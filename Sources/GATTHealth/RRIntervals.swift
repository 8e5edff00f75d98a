/// The RR-Interval list of a Heart Rate Measurement, in units of 1/1024 s, oldest first.
///
/// Up to ``inlineCapacity`` values are stored inline, so decoding a realistic notification (a strap sends
/// 0 to ~5 per second; a 20-byte ATT payload holds at most 9) allocates nothing. Longer lists, possible
/// with a large ATT MTU, spill into an array rather than being cut.
public struct RRIntervals: RandomAccessCollection, Hashable, Sendable {
    /// Values held without allocating.
    public static let inlineCapacity = 16

    private var inline: InlineArray<16, UInt16>
    private var overflow: [UInt16]
    public private(set) var count: Int

    /// An empty list.
    public init() {
        inline = InlineArray(repeating: 0)
        overflow = []
        count = 0
    }

    /// A list of the given values.
    public init(_ values: some Sequence<UInt16>) {
        self.init()
        for value in values { append(value) }
    }

    mutating func append(_ value: UInt16) {
        if count < Self.inlineCapacity { inline[count] = value } else { overflow.append(value) }
        count += 1
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> UInt16 {
        precondition(position >= 0 && position < count, "RR-interval index out of range")
        return position < Self.inlineCapacity ? inline[position] : overflow[position - Self.inlineCapacity]
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for value in self { hasher.combine(value) }
    }
}
