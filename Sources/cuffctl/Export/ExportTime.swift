import Foundation

/// The times export formats write (docs/export.md): ISO 8601 / RFC 3339 with seconds, in a zone with its
/// numeric offset (`2026-11-23T07:15:00+01:00`) or in UTC (`2026-11-23T06:15:00Z`); a fraction of a second
/// is kept to the millisecond.
enum ExportTime {
    /// `2026-11-23T07:15:00+01:00`: the wall clock of `zone` at `date` and its offset (`+00:00` in UTC).
    static func local(_ date: Date, in zone: TimeZone = .current) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        return wallClock(date, in: zone) + sign + two(minutes / 60) + ":" + two(minutes % 60)
    }

    /// `2026-11-23T06:15:00Z`.
    static func utc(_ date: Date) -> String {
        wallClock(date, in: TimeZone(identifier: "UTC")!) + "Z"
    }

    /// The wall clock by arithmetic on the proleptic Gregorian calendar (days since 1970-01-01 to a civil date,
    /// the well-known era-of-400-years method), which an export calls for every reading: a `Calendar` per
    /// reading took most of a CSV export's time.
    private static func wallClock(_ date: Date, in zone: TimeZone) -> String {
        let whole = date.timeIntervalSince1970.rounded(.down)
        let local = Int(whole) + zone.secondsFromGMT(for: date)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let second = local - days * 86_400
        let (year, month, day) = civilDate(daysSinceUnixEpoch: days)
        let yearText = String(year)
        var text = String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-" + two(month) + "-" + two(day)
            + "T" + two(second / 3600) + ":" + two(second / 60 % 60) + ":" + two(second % 60)
        let milliseconds = Int(((date.timeIntervalSince1970 - whole) * 1000).rounded())
        if milliseconds > 0 && milliseconds < 1000 {
            let digits = String(milliseconds)
            text += "." + String(repeating: "0", count: 3 - digits.count) + digits
        }
        return text
    }

    /// Year, month and day of the proleptic Gregorian date `days` after 1970-01-01: shifted to eras of 400 years
    /// (146 097 days) that start on 0000-03-01, so the leap day falls at the end of each year.
    static func civilDate(daysSinceUnixEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func two(_ value: Int?) -> String {
        let value = value ?? 0
        return value < 10 ? "0\(value)" : String(value)
    }
}
