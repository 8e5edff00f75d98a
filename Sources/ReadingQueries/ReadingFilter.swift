import BlueZ
import DBus
import Foundation
import HealthStore
import ReadingColumns

/// The filter of `Readings`, `HeartRates` and `Statistics` (docs/dbus-api.md): `since`, `until` (unix seconds, `d`),
/// `device` (address, `s`), `user` (User ID, `y`), `limit` (`u`), `syncIdentifier` (`s`, one reading), `withoutExcluded`
/// (`b`, leave out readings excluded on request), and the page: `before` or `after` a reading's `cursor` (`s`; `after`
/// `""` starts at the oldest).
///
/// Every value is checked here, where it crosses the bus: a time must be a finite date of the years 1–9999
/// (``SamplePredicate/supportedDates``) and a limit at most ``maximumLimit``, so that no reply outgrows the bus's
/// message size and no request makes cuffd hold more than one page of readings.
public struct ReadingFilter: Sendable {
    /// Which end of the matching readings a page is taken from.
    public enum Page: Sendable, Equatable {
        /// The newest `limit` (before a cursor, if given).
        case newest(before: SamplePosition?)
        /// The oldest `limit` after a cursor, or from the very oldest.
        case oldest(after: SamplePosition?, before: SamplePosition?)
    }

    /// Readings per reply when the caller names no `limit`.
    public static let defaultLimit = 100
    /// The most readings one reply carries: at about 700 bytes each on the wire, well under dbus-daemon's
    /// message limit, and a bounded amount of memory in cuffd whatever the store holds.
    public static let maximumLimit = 1000

    public var since: Date?
    public var until: Date?
    public var device: BluetoothAddress?
    public var user: UInt8?
    public var limit = Self.defaultLimit
    public var syncIdentifier: String?
    /// Leave out readings excluded on request (``SamplePredicate/excludeExcluded``).
    public var withoutExcluded = false
    public var page = Page.newest(before: nil)

    /// `maximumLimit`: the largest page the method answers (``ReadingColumns/maximumRows`` for `ReadingColumns`).
    public init(_ dictionary: DBusProperties, maximumLimit: Int = Self.maximumLimit) throws {
        for key in dictionary.keys where !Self.keys.contains(key) {
            throw ControlError.invalidArguments("unknown filter key \"\(key)\"; expected \(Self.keys.sorted().joined(separator: ", "))")
        }
        do {
            since = try Self.date(dictionary, "since")
            until = try Self.date(dictionary, "until")
            user = try dictionary.property("user", as: UInt8.self)
            if let limit = try dictionary.property("limit", as: UInt32.self) {
                guard (1...UInt32(maximumLimit)).contains(limit) else {
                    throw ControlError.invalidArguments("limit is 1 to \(maximumLimit), not \(limit); page with before or after for more")
                }
                self.limit = Int(limit)
            }
            syncIdentifier = try dictionary.property("syncIdentifier", as: String.self)
            withoutExcluded = try dictionary.property("withoutExcluded", as: Bool.self) ?? false
            if let text = try dictionary.property("device", as: String.self) {
                guard let address = BluetoothAddress(text) else { throw ControlError.invalidArguments("\"\(text)\" is not an address like C4:F3:12:53:F2:C9") }
                device = address
            }
            let before = try Self.cursor(dictionary, "before")
            if let after = try dictionary.property("after", as: String.self) {
                page = .oldest(after: after.isEmpty ? nil : try Self.position(after, "after"), before: before)
            } else {
                page = .newest(before: before)
            }
        } catch let mismatch as DBusTypeMismatch {
            throw ControlError.invalidArguments(mismatch.description)
        }
    }

    static let keys: Set<String> = ["since", "until", "device", "user", "limit", "syncIdentifier", "withoutExcluded", "before", "after"]

    private static func date(_ dictionary: DBusProperties, _ key: String) throws -> Date? {
        guard let seconds = try dictionary.property(key, as: Double.self) else { return nil }
        let date = Date(timeIntervalSince1970: seconds)
        guard SamplePredicate.supportedDates.contains(date) else {
            throw ControlError.invalidArguments("\(key) is unix seconds of a date in the years 1 to 9999, not \(seconds)")
        }
        return date
    }

    private static func cursor(_ dictionary: DBusProperties, _ key: String) throws -> SamplePosition? {
        try dictionary.property(key, as: String.self).map { try position($0, key) }
    }

    private static func position(_ text: String, _ key: String) throws -> SamplePosition {
        guard let position = ReadingCursor.position(text) else {
            throw ControlError.invalidArguments("\(key) takes the cursor of a reading, not \"\(text.prefix(80))\"")
        }
        return position
    }

    /// The store predicate: dates, User ID, sync identifier, the cuff's address, exclusion and the page's bounds.
    public var predicate: SamplePredicate {
        var predicate = SamplePredicate()
        // A reading or heart-rate value is an instant (start = end): taken by its start, so that Statistics can be
        // summed from the store's rollup (docs/health-store.md, "Schema and migrations").
        if since != nil || until != nil { predicate.dateRange = DateRange(start: since, end: until, strictStartDate: true) }
        if let user { predicate.metadata[MetadataKey.deviceUserID.name] = [.integer(Int64(user))] }
        if let syncIdentifier { predicate.metadata[MetadataKey.syncIdentifier.name] = [.string(syncIdentifier)] }
        predicate.deviceLocalIdentifier = device?.description
        predicate.excludeExcluded = withoutExcluded
        switch page {
        case .newest(let before):
            predicate.before = before
        case let .oldest(after, before):
            predicate.after = after
            predicate.before = before
        }
        return predicate
    }

    /// One page of the heart-rate samples of sensors (not the pulse of blood-pressure readings), oldest first.
    public func heartRates(in store: any HealthStoring, as client: HealthClient) throws -> [StoredHeartRate] {
        let newestFirst = if case .newest = page { true } else { false }
        var predicate = predicate
        predicate.excludeCorrelated = true
        let query = SampleQuery(type: .heartRate, predicate: predicate, sort: newestFirst ? .startDateDescending : .startDateAscending, limit: limit)
        let samples = try store.samples(query, as: client).compactMap(StoredHeartRate.init)
        return newestFirst ? samples.reversed() : samples
    }

    /// One page of the readings the store holds for `client`, oldest first, read flat (``ReadingRows``).
    public func readings(in store: any HealthStoring, as client: HealthClient) throws -> [ReadingRecord] {
        let newestFirst = if case .newest = page { true } else { false }
        let query = CorrelationQuery(type: .bloodPressure, predicate: predicate, sort: newestFirst ? .startDateDescending : .startDateAscending, limit: limit)
        let readings = ReadingRows.records(try store.correlationRows(query, columns: ReadingRows.columns, as: client))
        return newestFirst ? readings.reversed() : readings
    }
}
