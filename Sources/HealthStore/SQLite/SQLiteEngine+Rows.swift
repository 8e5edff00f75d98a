import Foundation
import GRDB

/// Row-level writes shared by saving and deleting: look-up by sync key, insert, in-place update,
/// tombstone. Each call allocates the next change sequence from the transaction's context.
extension SQLiteEngine {
    struct StoredKey {
        let id: Int64
        let uuid: UUID
        let typeID: Int64
        let sourceID: Int64
        let isCorrelation: Bool
        let syncIdentifier: String?
        let syncVersion: Int64
    }

    func storedKey(_ db: Database, _ sourceID: Int64, _ syncID: String) throws -> StoredKey? {
        let statement = try db.cachedStatement(sql: """
            SELECT id, uuid, type_id, source_id, is_correlation, sync_identifier, sync_version
            FROM sample WHERE source_id = ? AND sync_identifier = ?
            """)
        return try Row.fetchOne(statement, arguments: [sourceID, syncID]).map(Self.storedKey)
    }

    static func storedKey(_ row: Row) -> StoredKey {
        StoredKey(id: row[0], uuid: SQLiteCoding.uuid(row[1]), typeID: row[2], sourceID: row[3], isCorrelation: row[4], syncIdentifier: row[5], syncVersion: row[6] ?? 0)
    }

    func insert(_ uuid: UUID, typeID: Int64, isCorrelation: Bool, value: Double?, object: StorageFields, correlationID: Int64?, isMember: Bool, _ ctx: SQLiteWriteContext) throws -> Int64 {
        let statement = try ctx.db.cachedStatement(sql: """
            INSERT INTO sample (uuid, type_id, is_correlation, value, start_at, end_at, time_zone, source_id,
                revision_id, device_id, metadata, sync_identifier, sync_version, correlation_id, is_member,
                created_at, change_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let (revisionID, sourceID) = try ctx.revisionID(object.revision)
        let start = SQLiteCoding.micros(object.start)
        let arguments: StatementArguments = [
            SQLiteCoding.blob(uuid), typeID, isCorrelation, value, start, SQLiteCoding.micros(object.end),
            object.timeZone, sourceID, revisionID,
            try ctx.deviceID(object.device), SQLiteCoding.json(object.metadata), object.metadata.syncIdentifier,
            object.metadata.syncVersion, correlationID, isMember, ctx.now, ctx.nextSeq(),
        ]
        do {
            try statement.execute(arguments: arguments)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            if error.message?.contains("sample.uuid") == true { throw HealthStoreError.duplicateUUID(uuid) }
            if error.message?.contains("sample.sync_identifier") == true {
                throw HealthStoreError.invalidMetadata(key: MetadataKey.syncIdentifier.name, reason: "'\(object.metadata.syncIdentifier ?? "")' is already stored for this source")
            }
            throw error
        }
        if let value { ctx.addToRollup(typeID: typeID, sourceID: sourceID, startMicros: start, value: value) }
        return ctx.db.lastInsertedRowID
    }

    func update(rowID: Int64, with object: some StorageFieldsProviding, value: Double?, _ ctx: SQLiteWriteContext) throws {
        let fields = object.storageFields
        try ctx.flushRollup()  // the update trigger recomputes slots from `sample`
        do {
            try ctx.db.execute(sql: """
                UPDATE sample SET uuid = ?, value = ?, start_at = ?, end_at = ?, time_zone = ?, revision_id = ?,
                    device_id = ?, metadata = ?, sync_version = ?, created_at = ?, change_seq = ?
                WHERE id = ?
                """, arguments: [
                    SQLiteCoding.blob(fields.uuid), value, SQLiteCoding.micros(fields.start), SQLiteCoding.micros(fields.end),
                    fields.timeZone, try ctx.revisionID(fields.revision).revision, try ctx.deviceID(fields.device),
                    SQLiteCoding.json(fields.metadata), fields.metadata.syncVersion, ctx.now, ctx.nextSeq(), rowID,
                ])
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT && error.message?.contains("sample.uuid") == true {
            throw HealthStoreError.duplicateUUID(fields.uuid)
        }
    }

    func tombstone(_ stored: StoredKey, _ ctx: SQLiteWriteContext) throws {
        let statement = try ctx.db.cachedStatement(sql: """
            INSERT OR REPLACE INTO tombstone (uuid, type_id, source_id, sync_identifier, sync_version, deleted_at, change_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        try statement.execute(arguments: [
            SQLiteCoding.blob(stored.uuid), stored.typeID, stored.sourceID, stored.syncIdentifier,
            stored.syncIdentifier == nil ? nil : stored.syncVersion, ctx.now, ctx.nextSeq(),
        ])
    }

    /// Tombstones and deletes one row; returns its type identifier.
    @discardableResult
    func tombstoneAndDelete(rowID: Int64, _ ctx: SQLiteWriteContext) throws -> String {
        let row = try Row.fetchOne(ctx.db, sql: """
            SELECT s.id, s.uuid, s.type_id, s.source_id, s.is_correlation, s.sync_identifier, s.sync_version, t.identifier
            FROM sample s JOIN sample_type t ON t.id = s.type_id WHERE s.id = ?
            """, arguments: [rowID])!
        try ctx.flushRollup()  // the delete trigger recomputes the slot from `sample`
        try tombstone(Self.storedKey(row), ctx)
        try ctx.db.execute(sql: "DELETE FROM sample WHERE id = ?", arguments: [rowID])
        return row[7]
    }
}

/// The columns shared by quantity samples and correlations.
struct StorageFields {
    let uuid: UUID
    let start: Date
    let end: Date
    let timeZone: String?
    let revision: SharedValue<SourceRevision>
    let device: SharedValue<HealthDevice>?
    let metadata: HealthMetadata
}

protocol StorageFieldsProviding {
    var storageFields: StorageFields { get }
}

extension QuantitySample: StorageFieldsProviding {
    var storageFields: StorageFields {
        StorageFields(uuid: uuid, start: startDate, end: endDate, timeZone: timeZoneIdentifier, revision: sharedRevision!, device: sharedDevice, metadata: metadata)
    }
}

extension Correlation: StorageFieldsProviding {
    var storageFields: StorageFields {
        StorageFields(uuid: uuid, start: startDate, end: endDate, timeZone: timeZoneIdentifier, revision: sharedRevision!, device: sharedDevice, metadata: metadata)
    }
}
