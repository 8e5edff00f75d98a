/// The epoch of the BPS 1.1 uint32 time stamps, chosen by flag bit 6 of 0x2B34/0x2B35: 0 → 1900-01-01,
/// 1 → 2000-01-01, both 00:00:00 (GSS via embassy-rs/bt-hci; unverified against the BPS 1.1 text,
/// docs/reference/GATT-HEALTH.md §7).
public enum EpochStart: Hashable, Sendable {
    case year1900
    case year2000

    init(flags: UInt8) { self = flags & 0x40 == 0 ? .year1900 : .year2000 }

    var flagBit: UInt8 { self == .year1900 ? 0 : 0x40 }

    /// The calendar time `seconds` after this epoch, in the epoch's own time scale.
    public func dateTime(secondsSinceEpoch seconds: UInt32) -> DateTime {
        let startDay = ProlepticGregorian.days(year: self == .year1900 ? 1900 : 2000, month: 1, day: 1)
        let (year, month, day) = ProlepticGregorian.date(days: startDay + Int(seconds / 86_400))
        let second = Int(seconds % 86_400)
        return DateTime(
            year: UInt16(year), month: UInt8(month), day: UInt8(day),
            hours: UInt8(second / 3600), minutes: UInt8(second / 60 % 60), seconds: UInt8(second % 60)
        )
    }
}
