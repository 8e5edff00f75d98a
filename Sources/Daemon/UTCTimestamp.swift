import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// ISO 8601 text of an instant in UTC, to the second and without a zone designator ("2026-11-22T10:30:00"),
/// from gmtime_r(3): Foundation's ISO 8601 format style makes a `Calendar`, which looks up the current
/// `TimeZone` and so opens ICU and its data, over a megabyte of the daemon's memory (Benchmarks/RESULTS.md).
enum UTCTimestamp {
    static func text(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        gmtime_r(&seconds, &fields)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(fields.tm_year + 1900, 4))-\(padded(fields.tm_mon + 1, 2))-\(padded(fields.tm_mday, 2))"
            + "T\(padded(fields.tm_hour, 2)):\(padded(fields.tm_min, 2)):\(padded(fields.tm_sec, 2))"
    }
}
