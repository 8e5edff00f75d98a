import Foundation
import GRDB

/// Saving: the sync-identifier upsert rule (HEALTH-STORE.md §3) inside one write transaction.
///
/// The stored row for (source, syncIdentifier) is looked up and then inserted or updated within the
/// same transaction; SQLite has a single writer, so nothing can interleave, and the unique index
/// `sample_sync_key` backs the rule. A replacement updates the row in place (same row id, new UUID
/// and change sequence), so a replaced member keeps its place in its correlation, and tombstones the
/// old UUID ("old UUID deleted + new UUID added" for change-feed readers).
extension SQLiteEngine {
    public func saveSamples(_ samples: [QuantitySample], at now: Date) throws(HealthStoreError) -> [SaveOutcome<QuantitySample>] {
        try write { db in
            let ctx = try SQLiteWriteContext(db, now: now)
            var outcomes: [SaveOutcome<QuantitySample>] = []
            outcomes.reserveCapacity(samples.count)
            for sample in samples {
                outcomes.append(try upsert(sample, ctx))
            }
            try ctx.finish()
            return outcomes
        }
    }

    public func saveCorrelations(_ correlations: [Correlation], at now: Date) throws(HealthStoreError) -> [SaveOutcome<Correlation>] {
        try write { db in
            let ctx = try SQLiteWriteContext(db, now: now)
            var outcomes: [SaveOutcome<Correlation>] = []
            outcomes.reserveCapacity(correlations.count)
            for correlation in correlations {
                outcomes.append(try upsert(correlation, ctx))
            }
            try ctx.finish()
            return outcomes
        }
    }

    private func upsert(_ correlation: Correlation, _ ctx: SQLiteWriteContext) throws -> SaveOutcome<Correlation> {
        let db = ctx.db
        let sourceID = try ctx.sourceID(correlation.sourceRevision!.source)
        let typeID = try ctx.typeID(correlation.type.identifier)
        if let syncID = correlation.metadata.syncIdentifier, let stored = try storedKey(db, sourceID, syncID) {
            guard stored.isCorrelation, stored.typeID == typeID else {
                throw HealthStoreError.invalidMetadata(key: MetadataKey.syncIdentifier.name, reason: "'\(syncID)' is already used by an object of another type")
            }
            guard correlation.metadata.syncVersion! > stored.syncVersion else {
                return .alreadyStored(try loadCorrelations(db, where: "s.id = ?", [stored.id])[0])
            }
            // Replace the whole reading: members and linked samples go with the old version.
            for child in try Int64.fetchAll(db, sql: "SELECT id FROM sample WHERE correlation_id = ?", arguments: [stored.id]) {
                try tombstoneAndDelete(rowID: child, ctx)
            }
            try tombstone(stored, ctx)
            try update(rowID: stored.id, with: correlation, value: nil, ctx)
            try insertChildren(of: correlation, rowID: stored.id, ctx)
            return .replaced(correlation, replacedUUID: stored.uuid)
        }
        let rowID = try insert(correlation.uuid, typeID: typeID, isCorrelation: true, value: nil, object: correlation.storageFields, correlationID: nil, isMember: false, ctx)
        try insertChildren(of: correlation, rowID: rowID, ctx)
        return .inserted(correlation)
    }

    // MARK: Rows

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

    private func upsert(_ sample: QuantitySample, _ ctx: SQLiteWriteContext) throws -> SaveOutcome<QuantitySample> {
        let typeID = try ctx.typeID(sample.type.identifier)
        if let syncID = sample.metadata.syncIdentifier {
            let sourceID = try ctx.sourceID(sample.sourceRevision!.source)
            if let stored = try storedKey(ctx.db, sourceID, syncID) {
                guard !stored.isCorrelation, stored.typeID == typeID else {
                    throw HealthStoreError.invalidMetadata(key: MetadataKey.syncIdentifier.name, reason: "'\(syncID)' is already used by an object of another type")
                }
                guard sample.metadata.syncVersion! > stored.syncVersion else {
                    return .alreadyStored(try loadSamples(ctx.db, where: "s.id = ?", [stored.id])[0])
                }
                try tombstone(stored, ctx)
                try update(rowID: stored.id, with: sample, value: sample.quantity.value, ctx)
                return .replaced(sample, replacedUUID: stored.uuid)
            }
        }
        _ = try insert(sample.uuid, typeID: typeID, isCorrelation: false, value: sample.quantity.value, object: sample.storageFields, correlationID: nil, isMember: false, ctx)
        return .inserted(sample)
    }

    private func insertChildren(of correlation: Correlation, rowID: Int64, _ ctx: SQLiteWriteContext) throws {
        for (samples, isMember) in [(correlation.objects, true), (correlation.linkedSamples, false)] {
            for sample in samples {
                _ = try insert(sample.uuid, typeID: try ctx.typeID(sample.type.identifier), isCorrelation: false, value: sample.quantity.value, object: sample.storageFields, correlationID: rowID, isMember: isMember, ctx)
            }
        }
    }

    private func insert(_ uuid: UUID, typeID: Int64, isCorrelation: Bool, value: Double?, object: StorageFields, correlationID: Int64?, isMember: Bool, _ ctx: SQLiteWriteContext) throws -> Int64 {
        let statement = try ctx.db.cachedStatement(sql: """
            INSERT INTO sample (uuid, type_id, is_correlation, value, start_at, end_at, time_zone, source_id,
                revision_id, device_id, metadata, sync_identifier, sync_version, correlation_id, is_member,
                created_at, change_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let arguments: StatementArguments = [
            SQLiteCoding.blob(uuid), typeID, isCorrelation, value, SQLiteCoding.micros(object.start), SQLiteCoding.micros(object.end),
            object.timeZone, try ctx.sourceID(object.revision.source), try ctx.revisionID(object.revision),
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
        return ctx.db.lastInsertedRowID
    }

    private func update(rowID: Int64, with object: some StorageFieldsProviding, value: Double?, _ ctx: SQLiteWriteContext) throws {
        let fields = object.storageFields
        do {
            try ctx.db.execute(sql: """
                UPDATE sample SET uuid = ?, value = ?, start_at = ?, end_at = ?, time_zone = ?, revision_id = ?,
                    device_id = ?, metadata = ?, sync_version = ?, created_at = ?, change_seq = ?
                WHERE id = ?
                """, arguments: [
                    SQLiteCoding.blob(fields.uuid), value, SQLiteCoding.micros(fields.start), SQLiteCoding.micros(fields.end),
                    fields.timeZone, try ctx.revisionID(fields.revision), try ctx.deviceID(fields.device),
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
    let revision: SourceRevision
    let device: HealthDevice?
    let metadata: HealthMetadata
}

protocol StorageFieldsProviding {
    var storageFields: StorageFields { get }
}

extension QuantitySample: StorageFieldsProviding {
    var storageFields: StorageFields {
        StorageFields(uuid: uuid, start: startDate, end: endDate, timeZone: timeZoneIdentifier, revision: sourceRevision!, device: device, metadata: metadata)
    }
}

extension Correlation: StorageFieldsProviding {
    var storageFields: StorageFields {
        StorageFields(uuid: uuid, start: startDate, end: endDate, timeZone: timeZoneIdentifier, revision: sourceRevision!, device: device, metadata: metadata)
    }
}
