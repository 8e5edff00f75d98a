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
        return wallClock(date, offset: offset) + sign + WallClock.digits(minutes / 60, 2) + ":" + WallClock.digits(minutes % 60, 2)
    }

    /// `2026-11-23T06:15:00Z`.
    static func utc(_ date: Date) -> String {
        wallClock(date, offset: 0) + "Z"
    }

    /// `2026-11-23T07:15:00`, with `.250` when the instant, rounded to the millisecond, has a fraction of a second
    /// (rounded first, so that 07:15:00.9996 is 07:15:01, not 07:15:00).
    /// The zone's offset is looked up once per time by the caller: Foundation's look-up costs more than the rest.
    private static func wallClock(_ date: Date, offset: Int) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let whole = (milliseconds / 1000).rounded(.down)
        let clock = WallClock(Date(timeIntervalSince1970: whole), offset: offset)
        var text = clock.date + "T" + clock.seconds
        let fraction = Int(milliseconds - whole * 1000)
        if fraction > 0 { text += "." + WallClock.digits(fraction, 3) }
        return text
    }
}
