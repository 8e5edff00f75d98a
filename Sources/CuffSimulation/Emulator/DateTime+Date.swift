import Foundation
import GATTHealth

extension DateTime {
    /// The local wall-clock time of `date`, as a cuff's clock would hold it.
    init(_ date: Date) {
        let parts = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        self.init(
            year: UInt16(parts.year ?? 0), month: UInt8(parts.month ?? 0), day: UInt8(parts.day ?? 0),
            hours: UInt8(parts.hour ?? 0), minutes: UInt8(parts.minute ?? 0), seconds: UInt8(parts.second ?? 0))
    }
}
