import FoundationEssentials
import GATTHealth

extension DateTime {
    /// `date` as a wall clock in `timeZone` shows it: what a cuff's clock holds (GATT-HEALTH.md §10: no
    /// zone on the wire).
    public init(_ date: Date, in timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        self.init(
            year: UInt16(parts.year ?? 0), month: UInt8(parts.month ?? 0), day: UInt8(parts.day ?? 0),
            hours: UInt8(parts.hour ?? 0), minutes: UInt8(parts.minute ?? 0), seconds: UInt8(parts.second ?? 0))
    }

    /// This wall-clock time read as UTC; nil when it is not a known calendar time. Readings keep a cuff's
    /// time this way, and a measured clock offset turns it into the true instant.
    public var dateReadAsUTC: Date? {
        guard isKnown else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar.date(from: DateComponents(
            year: Int(year), month: Int(month), day: Int(day), hour: Int(hours), minute: Int(minutes), second: Int(seconds)))
    }
}
