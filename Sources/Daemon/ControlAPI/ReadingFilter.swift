import BlueZ
import DBus
import Foundation
import HealthStore

/// The filter of `Readings` and `Statistics` (docs/dbus-api.md): `since`, `until` (unix seconds, `d`),
/// `device` (address, `s`), `user` (User ID, `y`), `limit` (`u`, the newest that many), `syncIdentifier`
/// (`s`, one reading).
struct ReadingFilter: Sendable {
    var since: Date?
    var until: Date?
    var device: BluetoothAddress?
    var user: UInt8?
    var limit: Int?
    var syncIdentifier: String?

    init(_ dictionary: DBusProperties) throws {
        for key in dictionary.keys where !Self.keys.contains(key) {
            throw ControlError.invalidArguments("unknown filter key \"\(key)\"; expected \(Self.keys.sorted().joined(separator: ", "))")
        }
        do {
            since = try dictionary.property("since", as: Double.self).map(Date.init(timeIntervalSince1970:))
            until = try dictionary.property("until", as: Double.self).map(Date.init(timeIntervalSince1970:))
            user = try dictionary.property("user", as: UInt8.self)
            limit = try dictionary.property("limit", as: UInt32.self).map(Int.init)
            syncIdentifier = try dictionary.property("syncIdentifier", as: String.self)
            if let text = try dictionary.property("device", as: String.self) {
                guard let address = BluetoothAddress(text) else { throw ControlError.invalidArguments("\"\(text)\" is not an address like C4:F3:12:53:F2:C9") }
                device = address
            }
        } catch let mismatch as DBusTypeMismatch {
            throw ControlError.invalidArguments(mismatch.description)
        }
    }

    static let keys: Set<String> = ["since", "until", "device", "user", "limit", "syncIdentifier"]

    /// The store predicate for what the store can filter itself: dates, User ID, sync identifier.
    var predicate: SamplePredicate {
        var predicate = SamplePredicate()
        if since != nil || until != nil { predicate.dateRange = DateRange(start: since, end: until) }
        if let user { predicate.metadata[MetadataKey.deviceUserID.name] = [.integer(Int64(user))] }
        if let syncIdentifier { predicate.metadata[MetadataKey.syncIdentifier.name] = [.string(syncIdentifier)] }
        return predicate
    }

    /// The readings the store holds for `client`, oldest first: the newest `limit` of them.
    func readings(in store: any HealthStoring, as client: HealthClient) throws -> [StoredReading] {
        // The device is matched on the stored address after the query, so the limit applies after it.
        let query = CorrelationQuery(type: .bloodPressure, predicate: predicate, sort: .startDateDescending, limit: device == nil ? limit : nil)
        var readings = try store.correlations(query, as: client).compactMap(StoredReading.init)
        if let device { readings = readings.filter { $0.device.address == device.description } }
        if let limit { readings = Array(readings.prefix(limit)) }
        return readings.reversed()
    }
}
