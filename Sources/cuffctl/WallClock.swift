import Foundation
import GATTHealth

/// What a clock on the wall of a time zone shows at an instant, on the proleptic Gregorian calendar that ISO 8601
/// and FHIR's `dateTime` use (also before October 1582, where Foundation's Gregorian calendar turns Julian).
/// Worked out by arithmetic (``ProlepticGregorian``): exports and reports need it for every reading, and a
/// `Calendar` per reading took most of their time.
struct WallClock {
    let year: Int, month: Int, day: Int
    let hour: Int, minute: Int, second: Int
    /// Days since 1970-01-01 on this wall: equal for two instants on the same local day.
    let dayNumber: Int

    init(_ date: Date, in zone: TimeZone) {
        self.init(date, offset: zone.secondsFromGMT(for: date))
    }

    /// The wall clock `offset` seconds east of UTC, for a caller that has the zone's offset at `date` already.
    init(_ date: Date, offset: Int) {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + offset
        dayNumber = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let seconds = local - dayNumber * 86_400
        (year, month, day) = ProlepticGregorian.date(days: dayNumber + ProlepticGregorian.unixEpochDay)
        (hour, minute, second) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    /// `2026-11-23`.
    var date: String { Self.digits(year, 4) + "-" + Self.digits(month, 2) + "-" + Self.digits(day, 2) }
    /// `07:15`.
    var minutes: String { Self.digits(hour, 2) + ":" + Self.digits(minute, 2) }
    /// `07:15:00`.
    var seconds: String { minutes + ":" + Self.digits(second, 2) }

    /// `value` in decimal with leading zeros to `width` digits.
    static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
