import Foundation
import GATTHealth

extension DateTime {
    /// The wall-clock time `calendar` shows at `date` (local time by default), as a cuff's clock holds it.
    init(_ date: Date, calendar: Calendar = .current) {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        self.init(
            year: UInt16(parts.year ?? 0), month: UInt8(parts.month ?? 0), day: UInt8(parts.day ?? 0),
            hours: UInt8(parts.hour ?? 0), minutes: UInt8(parts.minute ?? 0), seconds: UInt8(parts.second ?? 0))
    }

    /// The instant `calendar` shows this wall-clock time at; nil for a time that is not a known calendar time.
    func date(in calendar: Calendar) -> Date? {
        guard isKnown else { return nil }
        let parts = DateComponents(year: Int(year), month: Int(month), day: Int(day), hour: Int(hours), minute: Int(minutes), second: Int(seconds))
        return calendar.date(from: parts)
    }
}
