import DBus
import HealthStore
import ReadingColumns
import ReadingQueries

/// The request of `Changes` and `ChangeColumns` (docs/dbus-api.md, "Change feed"): `anchor` (`t`, where the
/// caller's last reply ended; 0 or absent for the beginning), `limit` (`u`, 1–1000, or 1–10 000 for columns, 100
/// when absent), and `latest` (`b`: no changes, only the anchor of the newest, to follow from now on).
struct ChangeRequest: Sendable {
    var anchor: QueryAnchor?
    var limit = ReadingFilter.defaultLimit
    var latest = false

    static let keys: Set<String> = ["anchor", "limit", "latest"]

    init(_ dictionary: DBusProperties, maximumLimit: Int = ReadingFilter.maximumLimit) throws {
        for key in dictionary.keys where !Self.keys.contains(key) {
            throw ControlError.invalidArguments("unknown key \"\(key)\"; expected \(Self.keys.sorted().joined(separator: ", "))")
        }
        do {
            if let anchor = try dictionary.property("anchor", as: UInt64.self), anchor > 0 {
                guard let raw = Int64(exactly: anchor) else { throw ControlError.invalidArguments("anchor \(anchor) is beyond any anchor cuffd hands out") }
                self.anchor = QueryAnchor(rawValue: raw)
            }
            latest = try dictionary.property("latest", as: Bool.self) ?? false
            if let limit = try dictionary.property("limit", as: UInt32.self) {
                guard (1...UInt32(maximumLimit)).contains(limit) else {
                    throw ControlError.invalidArguments("limit is 1 to \(maximumLimit), not \(limit)")
                }
                self.limit = Int(limit)
            }
        } catch let mismatch as DBusTypeMismatch {
            throw ControlError.invalidArguments(mismatch.description)
        }
    }

    /// The same request from `anchor` on: the page after one that ended there.
    func from(_ anchor: UInt64) -> ChangeRequest {
        var next = self
        next.anchor = QueryAnchor(rawValue: Int64(clamping: anchor))
        return next
    }

    /// One page of the feed of blood-pressure readings as `client` may read them: readings stored or revised,
    /// and readings deleted or replaced, in commit order, with the anchor to pass next. The readings as
    /// `readings` (`aa{sv}`, `Changes`) or with `columns` as `columns` (``ReadingColumns``, `ChangeColumns`).
    func changes(in store: any HealthStoring, as client: HealthClient, columns: Bool = false) throws -> [String: DBusVariant] {
        // Past every change there is, the store answers nothing but its newest anchor.
        let batch = try store.correlationRowChanges(
            of: .bloodPressure, columns: ReadingRows.columns, since: latest ? QueryAnchor(rawValue: .max) : anchor, limit: limit, as: client)
        let readings = ReadingRows.records(batch.added)
        var reply = Self.page(batch.newAnchor, more: batch.hasMore, deleted: batch.deleted)
        if columns {
            reply["columns"] = DBusVariant(ReadingColumns.properties(readings))
        } else {
            reply["readings"] = DBusVariant(readings.map(ReadingDictionary.make))
        }
        return reply
    }

    /// One page of the feed of heart-rate sensors' samples (0x2A37) as `client` may read them, as `HeartRateChangeColumns`
    /// answers it (docs/dbus-api.md, "Heart-rate change feed"): samples stored, as ``HeartRateColumns`` in `columns`, and
    /// samples deleted, in commit order, with the anchor to pass next. The pulse of a blood-pressure reading, a
    /// `heartRate` sample too, is not one of them: a sensor's sample always says what it knew of its skin contact
    /// (``MetadataKey/heartRateSensorContact``), a reading's pulse never does.
    func heartRateChanges(in store: any HealthStoring, as client: HealthClient) throws -> [String: DBusVariant] {
        let batch = try store.changes(
            of: [.quantity(.heartRate)], since: latest ? QueryAnchor(rawValue: .max) : anchor, limit: limit, as: client)
        var samples: [HeartRateRecord] = []
        samples.reserveCapacity(batch.added.count)
        for case .quantity(let sample) in batch.added where sample.metadata[.heartRateSensorContact] != nil {
            if let stored = StoredHeartRate(sample) { samples.append(stored.record) }
        }
        var reply = Self.page(batch.newAnchor, more: batch.hasMore, deleted: batch.deleted)
        reply["columns"] = DBusVariant(HeartRateColumns.properties(samples))
        return reply
    }

    /// What every page of a feed carries: `anchor`, `more`, and `deleted` as (sync identifier, sync version).
    private static func page(_ anchor: QueryAnchor, more: Bool, deleted: [DeletedObject]) -> [String: DBusVariant] {
        let deleted = deleted.compactMap { object in
            object.syncIdentifier.map { DBusValue.structure([.string($0), .int64(object.syncVersion ?? 0)]) }
        }
        return [
            "anchor": DBusVariant(UInt64(anchor.rawValue)), "more": DBusVariant(more),
            "deleted": DBusVariant(.array(.structure([.string, .int64]), deleted)),
        ]
    }
}
