import Foundation
import GRDB

/// State of one write transaction: id caches for types, sources, revisions and devices, and the
/// change counter, read once and written back before commit (one writer, so gap-free and
/// commit-ordered: HEALTH-STORE.md §14 trap 1).
final class SQLiteWriteContext {
    let db: Database
    let now: Int64
    private var seq: Int64
    private var typeIDs: [String: Int64] = [:]
    private var sourceIDs: [String: Int64] = [:]
    private var revisionIDs: [SourceRevision: Int64] = [:]
    private var deviceIDs: [HealthDevice: Int64] = [:]

    init(_ db: Database, now: Date) throws {
        self.db = db
        self.now = SQLiteCoding.micros(now)
        seq = try Int64.fetchOne(db, sql: "SELECT change_seq FROM store_state WHERE id = 1") ?? 0
    }

    func nextSeq() -> Int64 {
        seq += 1
        return seq
    }

    /// Flushes the rollup and stores the counter; call last in the transaction.
    func finish() throws {
        try flushRollup()
        try db.execute(sql: "UPDATE store_state SET change_seq = ? WHERE id = 1", arguments: [seq])
    }

    // MARK: Rollup of inserted samples (migration v2)

    private struct SlotKey: Hashable {
        let typeID: Int64
        let slot: Int64
        let sourceID: Int64
    }

    private struct SlotDelta {
        var n: Int64 = 0
        var total = 0.0
        var lo = Double.infinity
        var hi = -Double.infinity
        var lastAt = Int64.min
        var lastValue = 0.0
    }

    private var pendingRollup: [SlotKey: SlotDelta] = [:]

    /// Records an inserted quantity sample; a later start (or an equal one, inserted later) becomes
    /// the slot's latest value, as in the slot recomputation (`ORDER BY start_at DESC, id DESC`).
    func addToRollup(typeID: Int64, sourceID: Int64, startMicros: Int64, value: Double) {
        let slotLength = SQLiteSchema.rollupSlotMicros
        let slot = startMicros >= 0 ? startMicros / slotLength : -((-startMicros - 1) / slotLength) - 1
        let key = SlotKey(typeID: typeID, slot: slot, sourceID: sourceID)
        var delta = pendingRollup[key] ?? SlotDelta()
        delta.n += 1
        delta.total += value
        delta.lo = min(delta.lo, value)
        delta.hi = max(delta.hi, value)
        if startMicros >= delta.lastAt {
            delta.lastAt = startMicros
            delta.lastValue = value
        }
        pendingRollup[key] = delta
    }

    /// Writes pending slot deltas; must run before any statement that makes a trigger recompute a
    /// slot from `sample` (updates, deletes), or those rows would be counted twice.
    func flushRollup() throws {
        guard !pendingRollup.isEmpty else { return }
        let statement = try db.cachedStatement(sql: SQLiteSchema.rollupUpsert)
        for (key, d) in pendingRollup {
            try statement.execute(arguments: [key.typeID, key.slot, key.sourceID, d.n, d.total, d.lo, d.hi, d.lastAt, d.lastValue])
        }
        pendingRollup.removeAll(keepingCapacity: true)
    }

    func typeID(_ identifier: String) throws -> Int64 {
        if let id = typeIDs[identifier] { return id }
        try db.execute(sql: "INSERT OR IGNORE INTO sample_type (identifier) VALUES (?)", arguments: [identifier])
        let id = try Int64.fetchOne(db, sql: "SELECT id FROM sample_type WHERE identifier = ?", arguments: [identifier])!
        typeIDs[identifier] = id
        return id
    }

    func sourceID(_ source: HealthSource) throws -> Int64 {
        if let id = sourceIDs[source.bundleIdentifier] { return id }
        try db.execute(sql: "INSERT OR IGNORE INTO source (bundle_identifier, name) VALUES (?, ?)", arguments: [source.bundleIdentifier, source.name])
        let id = try Int64.fetchOne(db, sql: "SELECT id FROM source WHERE bundle_identifier = ?", arguments: [source.bundleIdentifier])!
        sourceIDs[source.bundleIdentifier] = id
        return id
    }

    private var lastRevision: (SharedValue<SourceRevision>, Int64, Int64)?
    private var lastDevice: (SharedValue<HealthDevice>, Int64)?

    /// Revision and source row ids; the objects of one save share one revision reference, so the
    /// usual case is an identity check.
    func revisionID(_ shared: SharedValue<SourceRevision>) throws -> (revision: Int64, source: Int64) {
        if let (last, revisionID, sourceID) = lastRevision, last === shared { return (revisionID, sourceID) }
        let revision = shared.value
        let sourceID = try sourceID(revision.source)
        let id: Int64
        if let cached = revisionIDs[revision] {
            id = cached
        } else {
            let fingerprint = [revision.source.bundleIdentifier, revision.version ?? "", revision.operatingSystemVersion ?? "", revision.productType ?? ""].joined(separator: "\u{1F}")
            try db.execute(
                sql: "INSERT OR IGNORE INTO source_revision (source_id, version, os_version, product_type, fingerprint) VALUES (?, ?, ?, ?, ?)",
                arguments: [sourceID, revision.version, revision.operatingSystemVersion, revision.productType, fingerprint])
            id = try Int64.fetchOne(db, sql: "SELECT id FROM source_revision WHERE fingerprint = ?", arguments: [fingerprint])!
            revisionIDs[revision] = id
        }
        lastRevision = (shared, id, sourceID)
        return (id, sourceID)
    }

    /// Device row id; samples built from one device value share its reference.
    func deviceID(_ shared: SharedValue<HealthDevice>?) throws -> Int64? {
        guard let shared else { return nil }
        if let (last, id) = lastDevice, last === shared || last.value == shared.value {
            lastDevice = (shared, id)
            return id
        }
        let device = shared.value
        let id: Int64
        if let cached = deviceIDs[device] {
            id = cached
        } else {
            let payload = SQLiteCoding.json(device)
            try db.execute(sql: "INSERT OR IGNORE INTO device (identity, payload) VALUES (?, ?)", arguments: [device.identity, payload])
            id = try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE payload = ?", arguments: [payload])!
            deviceIDs[device] = id
        }
        lastDevice = (shared, id)
        return id
    }
}
