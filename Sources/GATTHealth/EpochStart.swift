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
        let startDay = self == .year1900 ? Self.daysFromCivil(1900, 1, 1) : Self.daysFromCivil(2000, 1, 1)
        let (year, month, day) = Self.civil(fromDays: startDay + Int(seconds / 86_400))
        let second = Int(seconds % 86_400)
        return DateTime(
            year: UInt16(year), month: UInt8(month), day: UInt8(day),
            hours: UInt8(second / 3600), minutes: UInt8(second / 60 % 60), seconds: UInt8(second % 60)
        )
    }

    /// Days from 0000-03-01 in the proleptic Gregorian calendar, counting in 400-year eras of 146 097 days
    /// with the year starting in March so that the leap day falls last.
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = marchYear / 400
        let yearOfEra = marchYear - era * 400
        let marchMonth = (month + 9) % 12
        let dayOfYear = (153 * marchMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra
    }

    /// The inverse of ``daysFromCivil(_:_:_:)`` for days ≥ 0.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let era = days / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let marchMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * marchMonth + 2) / 5 + 1
        let month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
