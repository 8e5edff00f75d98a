import FoundationEssentials
import GATTHealth

/// How far a cuff's clock is from the truth (docs/reference/GATT-HEALTH.md §10, §13.4): its Current Time is a local wall
/// clock without a zone, so the offset is the gateway's instant minus the cuff's time read as UTC — the
/// amount to add to any time stamp the cuff makes with that clock (PHD IG coincident time stamp).
enum ClockOffset {
    /// The offset at `now`, from a Current Time 0x2A2B value read then; nil when the cuff's clock is not a
    /// known calendar time (a reset clock reads 0000-00-00).
    static func measure(_ cuffTime: CurrentTime, at now: Date) -> Duration? {
        guard let cuff = cuffTime.dateTime.dateReadAsUTC else { return nil }
        let fraction = Double(cuffTime.fractions256) / 256
        let milliseconds = ((now.timeIntervalSince1970 - cuff.timeIntervalSince1970 - fraction) * 1000).rounded()
        return .milliseconds(Int64(milliseconds))
    }

    /// The Current Time to write so the cuff shows `now` on the gateway's local wall clock (ISO weekday,
    /// Fractions256 from the sub-second part, Adjust Reason "manual time update", as hass-omron writes it).
    static func currentTime(at now: Date, in zone: LocalTimeZone = LocalTimeZone()) -> CurrentTime {
        let fraction = now.timeIntervalSince1970 - now.timeIntervalSince1970.rounded(.down)
        var value = CurrentTime(dateTime: DateTime(now, in: zone), adjustReason: .manualTimeUpdate)
        value.fractions256 = UInt8(min(255, (fraction * 256).rounded(.down)))
        return value
    }
}
