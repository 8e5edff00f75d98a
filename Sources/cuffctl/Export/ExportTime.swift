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

    private static func wallClock(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let whole = date.timeIntervalSince1970.rounded(.down)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: whole))
        let year = String(parts.year ?? 0)
        var text = String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(parts.month) + "-" + two(parts.day)
            + "T" + two(parts.hour) + ":" + two(parts.minute) + ":" + two(parts.second)
        let milliseconds = Int(((date.timeIntervalSince1970 - whole) * 1000).rounded())
        if milliseconds > 0 && milliseconds < 1000 {
            let digits = String(milliseconds)
            text += "." + String(repeating: "0", count: 3 - digits.count) + digits
        }
        return text
    }

    private static func two(_ value: Int?) -> String {
        let value = value ?? 0
        return value < 10 ? "0\(value)" : String(value)
    }
}
