import Foundation

/// A DATE of `--since`/`--until` (docs/cuffctl.md): an ISO 8601 date-time (`2026-11-23T07:15:00+01:00`), a date
/// (`2026-11-23`, local midnight), or a span back from now — `12h`, `30d`, `12w`. Anything else is exit 64.
enum DateArgument {
    static func parse(_ text: String, now: Date = Date()) throws -> Date {
        if let span = span(text) { return now.addingTimeInterval(-span) }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let day = try? Date(text, strategy: Date.ISO8601FormatStyle(timeZone: .current).year().month().day()) { return day }
        throw CuffctlFailure(message: "\"\(text)\" is not a time like 2026-11-23T07:15:00+01:00, a date like 2026-11-23 or a span like 30d or 12w", status: ExitStatus.usage)
    }

    /// Seconds in `Nh`, `Nd` or `Nw`, or nil when the text is not such a span.
    private static func span(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let count = Int(text.dropLast()), count >= 0, count <= 1_000_000 else { return nil }
        switch unit {
        case "h": return TimeInterval(count) * 3600
        case "d": return TimeInterval(count) * 86400
        case "w": return TimeInterval(count) * 7 * 86400
        default: return nil
        }
    }
}
