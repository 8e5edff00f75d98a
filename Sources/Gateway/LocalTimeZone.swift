import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The gateway's own zone as the C library resolves it (`TZ`, else /etc/localtime; tzset(3)): the zone a
/// cuff's clock is assumed to show, since the wire carries none (docs/reference/GATT-HEALTH.md §10).
///
/// Asked through localtime_r(3) rather than Foundation's `TimeZone`: on Linux `TimeZone.current` opens ICU
/// and its zone data, over a megabyte of the daemon's resident memory (Benchmarks/RESULTS.md, the daemon),
/// for the offset glibc keeps anyway.
public struct LocalTimeZone: Sendable {
    public init() {}

    /// Seconds east of UTC at `date`, daylight saving time included.
    public func secondsFromGMT(for date: Date) -> Int {
        Int(wallClock(at: date).tm_gmtoff)
    }

    /// The fields of the wall clock in this zone at `date`, to the second (the fraction dropped).
    func wallClock(at date: Date) -> tm {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        localtime_r(&seconds, &fields)
        return fields
    }
}
