import Foundation
import GRDB

/// Saving: the sync-identifier upsert rule (docs/reference/HEALTH-STORE.md §3) inside one write transaction.
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
            var outcomes: [SaveOutcome<QuantitySample>?] = []
            outcomes.reserveCapacity(samples.count)
            var series: [(index: Int, sample: QuantitySample, value: SQLiteSeriesValue)] = []
            for (index, sample) in samples.enumerated() {
                if let value = SQLiteSeriesValue(sample, seq: 0) {
                    series.append((index, sample, value))
                    outcomes.append(nil)
                } else {
                    outcomes.append(try upsert(sample, ctx))
                }
            }
            for (index, outcome) in try saveSeries(series, ctx) { outcomes[index] = outcome }
            try ctx.finish()
            return outcomes.map { $0! }
        }
    }

    public func saveCorrelations(_ correlations: [Correlation], enteredBy uid: UInt32?, at now: Date) throws(HealthStoreError) -> [SaveOutcome<Correlation>] {
        try write { db in
            let ctx = try SQLiteWriteContext(db, now: now)
            var outcomes: [SaveOutcome<Correlation>] = []
            outcomes.reserveCapacity(correlations.count)
            for correlation in correlations {
                let outcome = try upsert(correlation, ctx)
                if let uid, outcome.didCommit, let syncIdentifier = correlation.metadata.syncIdentifier {
                    try ctx.recordEdit(
                        .entered, typeID: try ctx.typeID(correlation.type.identifier), sourceID: try ctx.revisionID(correlation.sharedRevision!).source,
                        syncIdentifier: syncIdentifier, person: correlation.metadata.personIdentifier, uid: uid, keys: EditRecord.enteredKeys(correlation.metadata))
                }
                outcomes.append(outcome)
            }
            try ctx.finish()
            return outcomes
        }
    }

    func upsert(_ correlation: Correlation, _ ctx: SQLiteWriteContext) throws -> SaveOutcome<Correlation> {
        let db = ctx.db
        let sourceID = try ctx.revisionID(correlation.sharedRevision!).source
        let typeID = try ctx.typeID(correlation.type.identifier)
        if let syncID = correlation.metadata.syncIdentifier, let stored = try ctx.storedKey(sourceID, syncID) {
            guard stored.isCorrelation, stored.typeID == typeID else {
                throw HealthStoreError.invalidMetadata(key: MetadataKey.syncIdentifier.name, reason: "'\(syncID)' is already used by an object of another type")
            }
            guard correlation.metadata.syncVersion! > stored.syncVersion else {
                return .alreadyStored(try loadCorrelations(db, where: "s.id = ?", [stored.id])[0])
            }
            // Replace the whole reading: members and linked samples go with the old version.
            for child in try Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM sample WHERE correlation_id = ?"), arguments: [stored.id]) {
                try tombstoneAndDelete(rowID: child, ctx)
            }
            try tombstone(stored, ctx)
            try update(rowID: stored.id, with: correlation, value: nil, ctx)
            try insertChildren(of: correlation, rowID: stored.id, ctx)
            return .replaced(correlation, replacedUUID: stored.uuid)
        }
        if let syncID = correlation.metadata.syncIdentifier, try ctx.wasDeleted(sourceID, syncID) { return .deleted(correlation) }
        let rowID = try insert(correlation.uuid, typeID: typeID, isCorrelation: true, value: nil, object: correlation.storageFields, correlationID: nil, isMember: false, ctx)
        try insertChildren(of: correlation, rowID: rowID, ctx)
        return .inserted(correlation)
    }

    private func upsert(_ sample: QuantitySample, _ ctx: SQLiteWriteContext) throws -> SaveOutcome<QuantitySample> {
        let typeID = try ctx.typeID(sample.type.identifier)
        if let syncID = sample.metadata.syncIdentifier {
            let sourceID = try ctx.revisionID(sample.sharedRevision!).source
            if let stored = try ctx.storedKey(sourceID, syncID) {
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
            // A value of a series row (migration v13) is replaced by a row of its own.
            if let stored = try seriesValue(ctx.db, sourceID: sourceID, syncIdentifier: syncID) {
                guard stored.typeID == typeID else {
                    throw HealthStoreError.invalidMetadata(key: MetadataKey.syncIdentifier.name, reason: "'\(syncID)' is already used by an object of another type")
                }
                guard sample.metadata.syncVersion! > 1 else {
                    return .alreadyStored(try SQLiteRowDecoder(db: ctx.db, engine: self).sample(stored)!)
                }
                try removeSeriesValue(rowID: Self.seriesRowID(stored.id), micros: stored.start, ctx)
                _ = try insert(sample.uuid, typeID: typeID, isCorrelation: false, value: sample.quantity.value, object: sample.storageFields, correlationID: nil, isMember: false, ctx)
                return .replaced(sample, replacedUUID: SQLiteCoding.uuid(stored.uuid))
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
}
