import DBus
import Foundation

/// The filters of `readings` and `export`: as cuffd's `Readings` filter, and applied to a reading cuffctl already
/// has (the change feed is not filtered by cuffd, and `Readings` has no person).
struct ReadingMatch {
    var since: Date?
    var until: Date?
    var device: String?
    var user: UInt8?
    var person: String?

    /// The `Readings` filter keys (docs/dbus-api.md) for all but the person.
    var readingsFilter: [String: DBusVariant] {
        var filter: [String: DBusVariant] = [:]
        if let since { filter["since"] = DBusVariant(since.timeIntervalSince1970) }
        if let until { filter["until"] = DBusVariant(until.timeIntervalSince1970) }
        if let device { filter["device"] = DBusVariant(device) }
        if let user { filter["user"] = DBusVariant(user) }
        return filter
    }

    func matches(_ reading: ReadingOutput) -> Bool {
        if let since, let time = reading.time, time < since { return false }
        if let until, let time = reading.time, time >= until { return false }
        if let device, reading.device["address"]?.uppercased() != device.uppercased() { return false }
        if let user, reading.userID != user { return false }
        if let person, reading.string("person") != person { return false }
        return true
    }
}
