import Foundation

/// `readings`' filters applied to a reading cuffctl already has (the change feed is not filtered by cuffd).
struct ReadingMatch {
    var since: Date?
    var until: Date?
    var device: String?
    var user: UInt8?

    func matches(_ reading: ReadingOutput) -> Bool {
        if let since, let time = reading.time, time < since { return false }
        if let until, let time = reading.time, time >= until { return false }
        if let device, reading.device["address"]?.uppercased() != device.uppercased() { return false }
        if let user, reading.userID != user { return false }
        return true
    }
}
