import Foundation
import GRDB

/// Deletion with tombstones (docs/reference/HEALTH-STORE.md §4): only the writing source may delete ("An
/// application may only delete objects that it previously saved", `HKHealthStore.h`); deleting a
/// correlation tombstones it with its members and linked samples atomically (cuffd rule); members
/// are never deleted alone, so no correlation is ever half-present.
extension SQLiteEngine {
    public func delete(_ uuids: [UUID], ownedBy source: String, at now: Date) throws(HealthStoreError) -> [String] {
        try write { db in
            let ctx = try SQLiteWriteContext(db, now: now)
            var deleted: [String] = []
            var seen = Set<UUID>()
            for uuid in uuids where seen.insert(uuid).inserted {
                guard let row = try Row.fetchOne(db, sql: """
                    SELECT s.id, src.bundle_identifier, s.correlation_id, s.is_correlation
                    FROM sample s JOIN source src ON src.id = s.source_id WHERE s.uuid = ?
                    """, arguments: [SQLiteCoding.blob(uuid)])
                else { throw HealthStoreError.objectNotFound(uuid) }
                guard (row[1] as String) == source else { throw HealthStoreError.notOwner(uuid) }
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
/// (migration v7), so that saving it again — a cuff sending its memory once more — stores nothing.
extension SQLiteEngine {
    public func deleteCorrelations(of type: String, syncIdentifiers: [String], source: String?, at now: Date) throws(HealthStoreError) -> [String] {
        try write { db in
            let ctx = try SQLiteWriteContext(db, now: now)
            let typeID = try Self.typeID(db, type)
            var deleted: [String] = []
            var seen = Set<String>()
            for syncIdentifier in syncIdentifiers where seen.insert(syncIdentifier).inserted {
                let rows = try typeID.map { typeID in
                    try Row.fetchAll(db.cachedStatement(sql: """
                        SELECT id, source_id FROM sample
                        WHERE source_id IN (SELECT id FROM source WHERE ?1 IS NULL OR bundle_identifier = ?1)
                          AND sync_identifier = ?2 AND type_id = ?3 AND is_correlation = 1
                        """), arguments: [source, syncIdentifier, typeID])
                } ?? []
                guard !rows.isEmpty else { throw HealthStoreError.unknownSyncIdentifier(syncIdentifier) }
                for row in rows {
                    let id: Int64 = row[0]
                    for child in try Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM sample WHERE correlation_id = ? ORDER BY id"), arguments: [id]) {
                        deleted.append(try tombstoneAndDelete(rowID: child, ctx))
                    }
                    deleted.append(try tombstoneAndDelete(rowID: id, ctx))
                    try ctx.rememberDeletion(row[1], syncIdentifier)
                }
            }
            try ctx.finish()
            return deleted
        }
    }
}
