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

    static func storedKey(_ row: Row) -> StoredKey {
        StoredKey(id: row[0], uuid: SQLiteCoding.uuid(row[1]), typeID: row[2], sourceID: row[3], isCorrelation: row[4], syncIdentifier: row[5], syncVersion: row[6] ?? 0)
    }

    /// Queues the row of a new object (written by the context's batched inserter, see
    /// ``SQLiteSampleInserter``) and returns its row id.
    func insert(_ uuid: UUID, typeID: Int64, isCorrelation: Bool, value: Double?, object: StorageFields, correlationID: Int64?, isMember: Bool, _ ctx: SQLiteWriteContext) throws -> Int64 {
        let (revisionID, sourceID) = try ctx.revisionID(object.revision)
        let id = try ctx.nextRowID()
        try ctx.insert(SQLiteSampleRow(
            id: id, uuid: uuid, typeID: typeID, isCorrelation: isCorrelation, value: value,
            start: SQLiteCoding.micros(object.start), end: SQLiteCoding.micros(object.end), timeZone: object.timeZone,
            sourceID: sourceID, revisionID: revisionID, deviceID: try ctx.deviceID(object.device),
            metadata: ctx.metadataJSON(object.metadata), syncIdentifier: object.metadata.syncIdentifier,
            syncVersion: object.metadata.syncVersion, correlationID: correlationID, isMember: isMember,
            createdAt: ctx.now, changeSeq: ctx.nextSeq(),
            rollupPart: SQLiteSchema.rollupPart(
                correlated: correlationID != nil, contact: object.metadata[.heartRateSensorContact],
                excluded: object.metadata.exclusionReason != nil)))
        return id
    }

    func update(rowID: Int64, with object: some StorageFieldsProviding, value: Double?, _ ctx: SQLiteWriteContext) throws {
        let fields = object.storageFields
        try ctx.flushPending()  // the row may be pending
        do {
            try ctx.db.cachedStatement(sql: """
                UPDATE sample SET uuid = ?, value = ?, start_at = ?, end_at = ?, time_zone = ?, revision_id = ?,
                    device_id = ?, metadata = ?, sync_version = ?, created_at = ?, change_seq = ?
                WHERE id = ?
                """).execute(arguments: [
                    SQLiteCoding.blob(fields.uuid), value, SQLiteCoding.micros(fields.start), SQLiteCoding.micros(fields.end),
                    fields.timeZone, try ctx.revisionID(fields.revision).revision, try ctx.deviceID(fields.device),
                    ctx.metadataJSON(fields.metadata)?.string, fields.metadata.syncVersion, ctx.now, ctx.nextSeq(), rowID,
                ])
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT && error.message?.contains("sample.uuid") == true {
            throw HealthStoreError.duplicateUUID(fields.uuid)
        }
    }

    /// The statement of ``tombstone(_:_:)``, its text made once: building it for each row (the person's JSON path
    /// quoted with `replacingOccurrences`) took as long as running it (perf, 1 000 readings revised in one call).
    private static let tombstoneSQL = """
        INSERT OR REPLACE INTO tombstone (uuid, type_id, source_id, sync_identifier, sync_version, deleted_at, change_seq, person)
        VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT \(SQLiteSchema.person("s.metadata")) FROM sample s WHERE s.id = ?))
        """

    /// Tombstones the stored row, with the person it was of (migration v7): called while the row still holds what is
    /// deleted or replaced.
    func tombstone(_ stored: StoredKey, _ ctx: SQLiteWriteContext) throws {
        try ctx.flushPending()  // the person is read from the row, which may still be pending
        let statement = try ctx.db.cachedStatement(sql: Self.tombstoneSQL)
        try statement.execute(arguments: [
            SQLiteCoding.blob(stored.uuid), stored.typeID, stored.sourceID, stored.syncIdentifier,
            stored.syncIdentifier == nil ? nil : stored.syncVersion, ctx.now, ctx.nextSeq(), stored.id,
        ])
    }

    /// Tombstones and deletes one row; returns its type identifier.
    @discardableResult
    func tombstoneAndDelete(rowID: Int64, _ ctx: SQLiteWriteContext) throws -> String {
        try ctx.flushPending()  // the row may be pending
        // Cached statements: preparing the DELETE compiles the rollup trigger with it, which made up most of a
        // deletion's time when prepared anew for each row.
        let row = try Row.fetchOne(ctx.db.cachedStatement(sql: """
            SELECT s.id, s.uuid, s.type_id, s.source_id, s.is_correlation, s.sync_identifier, s.sync_version, t.identifier
            FROM sample s JOIN sample_type t ON t.id = s.type_id WHERE s.id = ?
            """), arguments: [rowID])!
        try tombstone(Self.storedKey(row), ctx)
        try ctx.db.cachedStatement(sql: "DELETE FROM sample WHERE id = ?").execute(arguments: [rowID])
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
