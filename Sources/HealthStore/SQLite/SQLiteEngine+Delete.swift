import Foundation
import GRDB

/// Deletion with tombstones (docs/reference/HEALTH-STORE.md §4): only the writing source may delete ("An
/// application may only delete objects that it previously saved", `HKHealthStore.h`); deleting a
/// correlation tombstones it with its members and linked samples atomically (cuffd rule); members
/// are never deleted alone, so no correlation is ever half-present.
extension SQLiteEngine {
    public func delete(_ uuids: [UUID], ownedBy sourceName: String, at now: Date) throws(HealthStoreError) -> [String] {
        try write { db in
            let ctx = try SQLiteWriteContext(db, now: now)
            var deleted: [String] = []
            var seen = Set<UUID>()
            for uuid in uuids where seen.insert(uuid).inserted {
                if let value = try seriesValue(db, uuid: uuid) {
                    let source = try String.fetchOne(db, sql: "SELECT bundle_identifier FROM source WHERE id = (SELECT source_id FROM sample_series WHERE id = ?)",
                                                     arguments: [Self.seriesRowID(value.id)])
                    guard source == sourceName else { throw HealthStoreError.notOwner(uuid) }
                    deleted.append(try removeSeriesValue(rowID: Self.seriesRowID(value.id), micros: value.start, ctx))
                    continue
                }
                guard let row = try Row.fetchOne(db, sql: """
                    SELECT s.id, src.bundle_identifier, s.correlation_id, s.is_correlation
                    FROM sample s JOIN source src ON src.id = s.source_id WHERE s.uuid = ?
                    """, arguments: [SQLiteCoding.blob(uuid)])
                else { throw HealthStoreError.objectNotFound(uuid) }
                guard (row[1] as String) == sourceName else { throw HealthStoreError.notOwner(uuid) }
                guard (row[2] as Int64?) == nil else { throw HealthStoreError.memberOfCorrelation(uuid) }
                let id: Int64 = row[0]
                if row[3] as Bool {
                    for child in try Int64.fetchAll(db, sql: "SELECT id FROM sample WHERE correlation_id = ? ORDER BY id", arguments: [id]) {
                        deleted.append(try tombstoneAndDelete(rowID: child, ctx))
                    }
                }
                deleted.append(try tombstoneAndDelete(rowID: id, ctx))
            }
            try ctx.finish()
            return deleted
        }
    }
}

/// Deletion on request by sync identifier (docs/health-store.md, "Deleting on request"): a correlation goes with its members and
/// linked samples, each tombstoned for the change feed, and its (source, sync identifier) is remembered for good
/// (migration v8), so that saving it again — a cuff sending its memory once more — stores nothing.
extension SQLiteEngine {
    public func deleteCorrelations(
        of type: String, syncIdentifiers: [String], source: String?, people: Set<String>?, by uid: UInt32, at now: Date
    ) throws(HealthStoreError) -> [String] {
        try write { db in
            let ctx = try SQLiteWriteContext(db, now: now)
            let typeID = try Self.typeID(db, type)
            var found: [(row: Row, syncIdentifier: String)] = []
            var seen = Set<String>()
            for syncIdentifier in syncIdentifiers where seen.insert(syncIdentifier).inserted {
                found += try Self.correlationRows(db, typeID, syncIdentifier, source, people).map { ($0, syncIdentifier) }
            }
            let deleted = try tombstoneAndDelete(correlations: found.map { $0.row[0] }, ctx)
            for (row, syncIdentifier) in found {
                try ctx.rememberDeletion(row[1], syncIdentifier)
                try ctx.recordEdit(.deleted, typeID: typeID!, sourceID: row[1], syncIdentifier: syncIdentifier, person: row[2], uid: uid, keys: [])
            }
            try ctx.finish()
            return deleted
        }
    }
}

extension SQLiteEngine {
    /// The statements of ``correlationRows(_:_:_:_:_:)``, of any source and of one (`?3`), their text made once (as
    /// ``tombstone(_:_:)``'s).
    private static let correlationRowsSQL = (anySource: correlationRowsSQL("SELECT id FROM source"),
                                             oneSource: correlationRowsSQL("SELECT id FROM source WHERE bundle_identifier = ?3"))

    private static func correlationRowsSQL(_ sources: String) -> String {
        """
        SELECT id, source_id, \(SQLiteSchema.person("metadata")) FROM sample
        WHERE source_id IN (\(sources)) AND sync_identifier = ?1 AND +type_id = ?2 AND is_correlation = 1
        ORDER BY id
        """
    }

    /// The id and source id of each correlation of type `typeID` holding `syncIdentifier` (of the source `source` only,
    /// and of one of `people` only, when given), along the index `sample_sync_key`; none is
    /// ``HealthStoreError/unknownSyncIdentifier(_:)``.
    static func correlationRows(_ db: Database, _ typeID: Int64?, _ syncIdentifier: String, _ source: String?, _ people: Set<String>?) throws -> [Row] {
        // Each source's key looked up on `sample_sync_key`: `+type_id`, SQLite's unary plus, keeps the planner off
        // `sample_type_start`, which it took otherwise and read every reading of the type for each identifier (SQLite,
        // "The SQLite Query Optimizer Overview", §"Disqualifying WHERE clause terms using unary-+").
        let rows: [Row] = try typeID.map { typeID -> [Row] in
            let found = try Row.fetchAll(
                db.cachedStatement(sql: source == nil ? correlationRowsSQL.anySource : correlationRowsSQL.oneSource),
                arguments: source.map { [syncIdentifier, typeID, $0] } ?? [syncIdentifier, typeID])
            guard let people else { return found }
            return found.filter { row in (row[2] as String?).map(people.contains) ?? false }
        } ?? []
        guard !rows.isEmpty else { throw HealthStoreError.unknownSyncIdentifier(syncIdentifier) }
        return rows
    }

    /// A new revision of each correlation of type `type` holding one of `syncIdentifiers` (of `source` and `people`
    /// only, when given; the first saved, should several sources hold it) with `changes` applied
    /// (``Correlation/revised(_:)``), all saved in one transaction, each in place (``revise(rowID:from:to:sourceID:typeID:_:)``).
    /// A sync identifier named twice is revised once.
    public func reviseCorrelations(
        of type: String, syncIdentifiers: [String], source: String?, people: Set<String>?, changes: [MetadataKey: MetadataValue?],
        by uid: UInt32, at now: Date
    ) throws(HealthStoreError) -> [Correlation] {
        try write { db in
            let ctx = try SQLiteWriteContext(db, now: now)
            let typeID = try Self.typeID(db, type)
            var revisions: [Correlation] = []
            var seen = Set<String>()
            // One decoder for all: the readings mostly share their device, source revision and types.
            let decoder = SQLiteRowDecoder(db: db, engine: self)
            for syncIdentifier in syncIdentifiers where seen.insert(syncIdentifier).inserted {
                let row = try Self.correlationRows(db, typeID, syncIdentifier, source, people)[0]
                let stored = try loadCorrelations(db, where: "s.id = ?", [row[0] as Int64], decoder: decoder)[0]
                let revised = stored.revised(changes)
                try revise(rowID: row[0], from: stored, to: revised, sourceID: row[1], typeID: typeID!, ctx)
                try ctx.recordEdit(
                    .annotated, typeID: typeID!, sourceID: row[1], syncIdentifier: syncIdentifier, person: revised.metadata.personIdentifier, uid: uid,
                    keys: changes.keys.map(\.name))
                revisions.append(revised)
            }
            try ctx.finish()
            return revisions
        }
    }

    /// Saves `revised`, the next revision of `stored` (the correlation at row `rowID`), in place (docs/health-store.md,
    /// "Revising on request"): each old UUID tombstoned, as the upsert rule does, and the rows of the correlation, its
    /// members and its linked samples updated to the new UUIDs and metadata, keeping their row ids — so the rows and
    /// their index entries of values and times stay, and a rollup slot is recomputed only when a sample's part changed
    /// (migration v11), not deleted and summed again for every member.
    func revise(rowID: Int64, from stored: Correlation, to revised: Correlation, sourceID: Int64, typeID: Int64, _ ctx: SQLiteWriteContext) throws {
        let next = Dictionary(uniqueKeysWithValues: zip((stored.objects + stored.linkedSamples).map(\.uuid), revised.objects + revised.linkedSamples))
        let children = try Row.fetchAll(ctx.db.cachedStatement(sql: """
            SELECT id, uuid, type_id, source_id, is_correlation, sync_identifier, sync_version FROM sample WHERE correlation_id = ? ORDER BY id
            """), arguments: [rowID]).map(Self.storedKey)
        for child in children {
            // A row the object model does not read (of a type it does not know) is not part of the revision.
            guard let sample = next[child.uuid] else {
                try tombstoneAndDelete(rowID: child.id, ctx)
                continue
            }
            try tombstone(child, ctx)
            try update(rowID: child.id, with: sample, value: sample.quantity.value, ctx)
        }
        try tombstone(
            StoredKey(
                id: rowID, uuid: stored.uuid, typeID: typeID, sourceID: sourceID, isCorrelation: true,
                syncIdentifier: stored.metadata.syncIdentifier, syncVersion: stored.metadata.syncVersion ?? 0),
            ctx)
        try update(rowID: rowID, with: revised, value: nil, ctx)
    }
}
