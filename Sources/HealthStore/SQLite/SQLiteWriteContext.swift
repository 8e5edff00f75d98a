import Foundation
import GRDB

/// State of one write transaction: id caches for types, sources, revisions and devices, the change
/// counter (read once and written back before commit; one writer, so gap-free and commit-ordered:
/// docs/reference/HEALTH-STORE.md §14 trap 1), the row ids, the batched `sample` inserts and the rollup deltas.
///
/// Inserted rows wait in ``SQLiteSampleInserter`` and their rollup deltas here; ``flushPending()``
/// writes both and must run before any statement that reads or changes `sample` rows the
/// transaction may have inserted (updates, deletes, tombstones); a sync-key look-up flushes only
/// when its key is pending (``storedKey(_:_:)``). Slots that deletions and updates mark are
/// recomputed in ``finish()``, after the last deltas are written (migration v12).
final class SQLiteWriteContext {
    let db: Database
    let now: Int64
    private var seq: Int64
    private var rowID: Int64?
    private var typeIDs: [String: Int64] = [:]
    private var lastType: (identifier: String, id: Int64)?
    private var sourceIDs: [String: Int64] = [:]
    private var revisionIDs: [SourceRevision: Int64] = [:]
    private var deviceIDs: [HealthDevice: Int64] = [:]
    private lazy var inserter = SQLiteSampleInserter(db)

    init(_ db: Database, now: Date) throws {
        self.db = db
        self.now = SQLiteCoding.micros(now)
        seq = try Int64.fetchOne(db.cachedStatement(sql: "SELECT change_seq FROM store_state WHERE id = 1")) ?? 0
    }

    func nextSeq() -> Int64 {
        seq += 1
        return seq
    }

    /// The first of the next `count` change sequences, all taken.
    func nextSeqs(_ count: Int) -> Int64 {
        seq += Int64(count)
        return seq - Int64(count) + 1
    }

    /// The next `sample` row id: one above the largest at the transaction's first insert, as
    /// SQLite itself allocates rowids of a table without AUTOINCREMENT.
    func nextRowID() throws -> Int64 {
        let next = try rowID ?? (Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM sample")) ?? 0)
        rowID = next + 1
        return next + 1
    }

    /// Flushes pending rows and the rollup, recomputes the rollup slots marked by deletions and updates (migration v12)
    /// and stores the counter; call last in the transaction.
    func finish() throws {
        try flushPending()
        if try Bool.fetchOne(db.cachedStatement(sql: SQLiteSchema.anyMarked)) == true {
            for sql in SQLiteSchema.recomputeMarked { try db.cachedStatement(sql: sql).execute() }
        }
        try db.cachedStatement(sql: "UPDATE store_state SET change_seq = ? WHERE id = 1").execute(arguments: [seq])
    }

    // MARK: Batched inserts

    private struct SyncKey: Hashable {
        let sourceID: Int64
        let syncIdentifier: String
    }

    /// Sync keys of the rows waiting in the inserter.
    private var pendingSyncKeys = Set<SyncKey>()

    /// Queues a `sample` row and adds a quantity sample to its rollup slot.
    func insert(_ row: SQLiteSampleRow) throws {
        if let syncIdentifier = row.syncIdentifier { pendingSyncKeys.insert(SyncKey(sourceID: row.sourceID, syncIdentifier: syncIdentifier)) }
        if let value = row.value { addToRollup(typeID: row.typeID, part: row.rollupPart, sourceID: row.sourceID, startMicros: row.start, value: value) }
        try inserter.append(row)
        if inserter.pending.isEmpty { pendingSyncKeys.removeAll(keepingCapacity: true) }
    }

    /// Writes the pending rows, then the pending rollup deltas.
    func flushPending() throws {
        try flushRows()
        try flushRollup()
    }

    private func flushRows() throws {
        try inserter.flush()
        pendingSyncKeys.removeAll(keepingCapacity: true)
    }

    private lazy var syncKeyLookup = Result { try SQLiteRawStatement(db, sql: """
        SELECT id, uuid, type_id, source_id, is_correlation, sync_identifier, sync_version
        FROM sample WHERE source_id = ? AND sync_identifier = ?
        """) }

    /// The stored row holding (source, sync identifier), the upsert rule's look-up (docs/reference/HEALTH-STORE.md
    /// §3); pending rows are written first when one of them holds the key.
    func storedKey(_ sourceID: Int64, _ syncIdentifier: String) throws -> SQLiteEngine.StoredKey? {
        if pendingSyncKeys.contains(SyncKey(sourceID: sourceID, syncIdentifier: syncIdentifier)) { try flushRows() }
        let statement = try syncKeyLookup.get()
        defer { statement.reset() }
        statement.bind(sourceID, at: 1)
        statement.bind(syncIdentifier, at: 2)
        guard try statement.step() else { return nil }
        return SQLiteEngine.StoredKey(
            id: statement.int64(0), uuid: statement.uuid(1), typeID: statement.int64(2), sourceID: statement.int64(3),
            isCorrelation: statement.int64(4) != 0, syncIdentifier: statement.optionalText(5),
            syncVersion: statement.optionalInt64(6) ?? 0)
    }

    /// Whether the store remembers any deleted sync key, read once per transaction: mostly none, and then saving
    /// looks up nothing more.
    private var remembersDeletions: Bool?

    /// Whether a correlation holding (source, sync identifier) was deleted on request (migration v8): saving it again
    /// stores nothing.
    func wasDeleted(_ sourceID: Int64, _ syncIdentifier: String) throws -> Bool {
        if remembersDeletions == nil {
            remembersDeletions = try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM deleted_sync_key)")) ?? false
        }
        guard remembersDeletions == true else { return false }
        return try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM deleted_sync_key WHERE source_id = ? AND sync_identifier = ?)"),
            arguments: [sourceID, syncIdentifier]) ?? false
    }

    /// Remembers that the correlation holding (source, sync identifier) was deleted on request.
    func rememberDeletion(_ sourceID: Int64, _ syncIdentifier: String) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO deleted_sync_key (source_id, sync_identifier, deleted_at) VALUES (?, ?, ?)")
            .execute(arguments: [sourceID, syncIdentifier, now])
        remembersDeletions = true
    }

    // MARK: Metadata text

    private var lastMetadata: (entries: [String: MetadataValue], json: SQLiteText?)?

    /// ``SQLiteCoding/json(_:)-(HealthMetadata)`` of `metadata`, encoded once while consecutive objects
    /// carry equal entries (a batch from one device, a reading's members).
    func metadataJSON(_ metadata: HealthMetadata) -> SQLiteText? {
        if let last = lastMetadata, last.entries == metadata.entries { return last.json }
        let json = SQLiteCoding.json(metadata).map(SQLiteText.init)
        lastMetadata = (metadata.entries, json)
        return json
    }

    // MARK: Rollup of inserted samples (migrations v2, v6)

    private struct SlotKey: Hashable {
        let typeID: Int64
        let part: Int64
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
    /// The slot of the latest insert, kept out of ``pendingRollup``: consecutive samples mostly
    /// share a slot, so most inserts touch no dictionary.
    private var currentSlot: (key: SlotKey, delta: SlotDelta)?

    /// Records an inserted quantity sample; a later start (or an equal one, inserted later) becomes
    /// the slot's latest value, as in the slot recomputation (`ORDER BY start_at DESC, id DESC`).
    func addToRollup(typeID: Int64, part: Int64, sourceID: Int64, startMicros: Int64, value: Double) {
        let key = SlotKey(typeID: typeID, part: part, slot: Self.slot(of: startMicros), sourceID: sourceID)
        var (currentKey, delta) = currentSlot ?? (key, SlotDelta())
        if currentKey != key {
            pendingRollup[currentKey] = delta
            currentKey = key
            delta = pendingRollup.removeValue(forKey: key) ?? SlotDelta()
        }
        delta.n += 1
        delta.total += value
        delta.lo = min(delta.lo, value)
        delta.hi = max(delta.hi, value)
        if startMicros >= delta.lastAt {
            delta.lastAt = startMicros
            delta.lastValue = value
        }
        currentSlot = (currentKey, delta)
    }

    /// The rollup slot of a sample starting at `micros` (``SQLiteSchema/slot(_:)`` in Swift).
    static func slot(of micros: Int64) -> Int64 {
        let slotLength = SQLiteSchema.rollupSlotMicros
        return micros >= 0 ? micros / slotLength : -((-micros - 1) / slotLength) - 1
    }

    private lazy var rollupUpsert = Result { try SQLiteRawStatement(db, sql: SQLiteSchema.rollupUpsert) }

    /// Writes pending slot deltas; runs (through ``finish()``) before the marked slots are recomputed from `sample`,
    /// which then hold them already.
    private func flushRollup() throws {
        if let (key, delta) = currentSlot { pendingRollup[key] = delta }
        currentSlot = nil
        guard !pendingRollup.isEmpty else { return }
        let statement = try rollupUpsert.get()
        for (key, d) in pendingRollup {
            statement.bind(key.typeID, at: 1)
            statement.bind(key.part, at: 2)
            statement.bind(key.slot, at: 3)
            statement.bind(key.sourceID, at: 4)
            statement.bind(d.n, at: 5)
            statement.bind(d.total, at: 6)
            statement.bind(d.lo, at: 7)
            statement.bind(d.hi, at: 8)
            statement.bind(d.lastAt, at: 9)
            statement.bind(d.lastValue, at: 10)
            try statement.execute()
        }
        pendingRollup.removeAll(keepingCapacity: true)
    }

    func typeID(_ identifier: String) throws -> Int64 {
        if let (last, id) = lastType, last == identifier { return id }
        if let id = typeIDs[identifier] {
            lastType = (identifier, id)
            return id
        }
        let id = try dictionaryID(
            select: "SELECT id FROM sample_type WHERE identifier = ?", [identifier],
            insert: "INSERT INTO sample_type (identifier) VALUES (?)", [identifier])
        typeIDs[identifier] = id
        lastType = (identifier, id)
        return id
    }

    func sourceID(_ source: HealthSource) throws -> Int64 {
        if let id = sourceIDs[source.bundleIdentifier] { return id }
        let id = try dictionaryID(
            select: "SELECT id FROM source WHERE bundle_identifier = ?", [source.bundleIdentifier],
            insert: "INSERT INTO source (bundle_identifier, name) VALUES (?, ?)", [source.bundleIdentifier, source.name])
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
            id = try dictionaryID(
                select: "SELECT id FROM source_revision WHERE fingerprint = ?", [fingerprint],
                insert: "INSERT INTO source_revision (source_id, version, os_version, product_type, fingerprint) VALUES (?, ?, ?, ?, ?)",
                [sourceID, revision.version, revision.operatingSystemVersion, revision.productType, fingerprint])
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
            id = try dictionaryID(
                select: "SELECT id FROM device WHERE payload = ?", [payload],
                insert: "INSERT INTO device (identity, payload) VALUES (?, ?)", [device.identity, payload])
            deviceIDs[device] = id
        }
        lastDevice = (shared, id)
        return id
    }

    /// The id of a row of a dictionary table (`sample_type`, `source`, `source_revision`, `device`),
    /// found by its unique key or inserted. Cached statements: each runs once per transaction and
    /// value, and preparing them anew made up most of a single reading's commit (callgrind).
    private func dictionaryID(select: String, _ key: StatementArguments, insert: String, _ row: StatementArguments) throws -> Int64 {
        if let id = try Int64.fetchOne(db.cachedStatement(sql: select), arguments: key) { return id }
        try db.cachedStatement(sql: insert).execute(arguments: row)
        return db.lastInsertedRowID
    }
}
