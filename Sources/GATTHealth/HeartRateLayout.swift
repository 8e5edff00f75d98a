/// Where the fields of a Heart Rate Measurement frame lie (docs/reference/GATT-HEALTH.md §9), from its flags byte alone,
/// by masks and shifts rather than branches.
@usableFromInline
struct HeartRateLayout {
    /// 1 when the value is a uint16 (flag bit 0), else 0.
    @usableFromInline let sixteenBit: Int
    /// 2 when Energy Expended is present (flag bit 3), else 0.
    @usableFromInline let energyLength: Int
    /// 2 when RR-Intervals are present (flag bit 4, "one or more"), else 0.
    @usableFromInline let rrMinimum: Int

    @inlinable @inline(__always)
    init(flags: UInt8) {
        sixteenBit = Int(flags & 0x01)
        energyLength = Int(flags >> 2 & 0x02)
        rrMinimum = Int(flags >> 3 & 0x02)
    }

    /// Offset of the first RR-Interval (of the trailing bytes, when there are none).
    @inlinable var rrStart: Int {
        @inline(__always) get { 2 &+ sixteenBit &+ energyLength }
    }

    /// The length `flags` require — flags, value, energy, and one RR-Interval if bit 4 is set: ``rrStart`` +
    /// ``rrMinimum`` — read from a table of the 32 values of the flags' low five bits (bits 5–7 are RFU), a mask and a
    /// load where the sum takes ten instructions on a decoder's hot path (Benchmarks/RESULTS.md, decode speed).
    @inlinable @inline(__always)
    static func required(flags: UInt8) -> Int {
        Int(requiredLengths.utf8Start[Int(flags & 0x1F)])
    }

    /// Entry `f`: 2, plus 1 when bit 0 is set (a uint16 value), 2 for bit 3 (energy) and 2 for bit 4 (an RR-Interval).
    /// A static string's bytes are a constant of the binary: nothing is built or initialised at run time.
    @inlinable static var requiredLengths: StaticString {
        """
        \u{2}\u{3}\u{2}\u{3}\u{2}\u{3}\u{2}\u{3}\u{4}\u{5}\u{4}\u{5}\u{4}\u{5}\u{4}\u{5}\
        \u{4}\u{5}\u{4}\u{5}\u{4}\u{5}\u{4}\u{5}\u{6}\u{7}\u{6}\u{7}\u{6}\u{7}\u{6}\u{7}
        """
    }

    /// The whole RR-Intervals in a frame of this layout `length` bytes long, at least ``required(flags:)``.
    @inlinable @inline(__always)
    func rrPairs(inFrameOf length: Int) -> Int {
        (length &- rrStart) >> 1 & (0 &- rrMinimum >> 1)
    }
}
