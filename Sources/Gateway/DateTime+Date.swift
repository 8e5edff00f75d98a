import FoundationEssentials
import GATTHealth
#if canImport(Glibc)
import Glibc
#endif

extension DateTime {
    /// `date` as a wall clock in `zone` shows it: what a cuff's clock holds (docs/reference/GATT-HEALTH.md §10: no zone
    /// on the wire).
    public init(_ date: Date, in zone: LocalTimeZone = LocalTimeZone()) {
        self.init(zone.wallClock(at: date))
    }

    /// `date` as a UTC wall clock shows it: the inverse of ``dateReadAsUTC`` (gmtime(3)).
    public init(utc date: Date) {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        gmtime_r(&seconds, &fields)
        self.init(fields)
    }

    /// The fields of a broken-down time (tm(3)).
    init(_ fields: tm) {
        self.init(
            year: UInt16(fields.tm_year + 1900), month: UInt8(fields.tm_mon + 1), day: UInt8(fields.tm_mday),
            hours: UInt8(fields.tm_hour), minutes: UInt8(fields.tm_min), seconds: UInt8(fields.tm_sec))
    }

    /// This wall-clock time read as UTC; nil when it is not a known calendar time. Readings keep a cuff's
    /// time this way, and a measured clock offset turns it into the true instant.
    /// (timegm(3), not a Foundation `Calendar`: making one looks up the current `TimeZone`, which opens ICU.)
    public var dateReadAsUTC: Date? {
        guard isKnown else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year) - 1900
        fields.tm_mon = Int32(month) - 1
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hours)
        fields.tm_min = Int32(minutes)
        fields.tm_sec = Int32(seconds)
        return Date(timeIntervalSince1970: TimeInterval(timegm(&fields)))
    }
}
