/// Measurement Status bits by name (docs/reference/GATT-HEALTH.md §4): the names `cuffctl decode --json` gives the
/// flags, and the words a scenario's `expect.readings[].status` lists (docs/cuff-sim.md). The VM acceptance driver
/// holds the same table (`Acceptance/acceptance/status_names.py`; `StatusNameParityTests` keeps them equal).
extension BloodPressureMeasurementStatus {
    /// Every name with the bits it looks at and the value they must have, in bit order: the one-bit flags, the
    /// Pulse Rate Range (bits 3–4) when not within range, and each RFU bit (6–15) as `reservedBitN`, so that no
    /// bit goes unnamed.
    public static let nameTable: [(name: String, mask: UInt16, value: UInt16)] = [
        ("bodyMovement", 0x0001, 0x0001),
        ("cuffTooLoose", 0x0002, 0x0002),
        ("irregularPulse", 0x0004, 0x0004),
        ("pulseRateExceedsUpperLimit", 0x0018, 0x0008),
        ("pulseRateBelowLowerLimit", 0x0018, 0x0010),
        ("pulseRateRangeReserved", 0x0018, 0x0018),
        ("improperPosition", 0x0020, 0x0020),
    ] + (6 ..< 16).map { ("reservedBit\($0)", UInt16(1) << $0, UInt16(1) << $0) }

    /// The names of the bits set, in bit order; `[]` for a status with none.
    public var names: [String] {
        Self.nameTable.filter { rawValue & $0.mask == $0.value }.map(\.name)
    }

    /// The status whose set bits are `names`, in any order; nil when a name is not in `nameTable`, or when two
    /// cannot both hold (two Pulse Rate Ranges, or a name twice).
    public init?(names: [String]) {
        var rawValue: UInt16 = 0
        for name in names {
            guard let entry = Self.nameTable.first(where: { $0.name == name }) else { return nil }
            rawValue |= entry.value
        }
        let status = Self(rawValue: rawValue)
        guard status.names.sorted() == names.sorted() else { return nil }
        self = status
    }
}
