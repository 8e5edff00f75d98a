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

    /// The length the flags require: flags, value, energy, and one RR-Interval if bit 4 is set.
    @inlinable var required: Int {
        @inline(__always) get { rrStart &+ rrMinimum }
    }

    /// The whole RR-Intervals in a frame of this layout `length` bytes long, at least ``required``.
    @inlinable @inline(__always)
    func rrPairs(inFrameOf length: Int) -> Int {
        (length &- rrStart) >> 1 & (0 &- rrMinimum >> 1)
    }
}
