import Foundation
import GRDB

/// The anchored change feed and tombstone retention (docs/reference/HEALTH-STORE.md §4–5).
///
/// Samples and tombstones share one change counter. A page is read in one snapshot: rows with
/// `change_seq > anchor` in order, `limit + 1` of them to learn `hasMore`. The new anchor is the
/// last returned row's sequence, or the counter's value in the same snapshot when the page is
/// complete, so no commit is ever skipped. An anchor below `purged_through_seq` (the newest
/// purged tombstone) answers ``HealthStoreError/anchorExpired(_:)``.
extension SQLiteEngine {
    public func changes(_ filters: [String: String?], since anchor: QueryAnchor?, limit: Int) throws(HealthStoreError) -> ChangeBatch {
        try read { db in
            let state = try Row.fetchOne(db, sql: "SELECT change_seq, purged_through_seq FROM store_state WHERE id = 1")!
            let current: Int64 = state[0]
            let purged: Int64 = state[1]
            if let anchor, anchor.rawValue < purged { throw HealthStoreError.anchorExpired(anchor) }
            let after = anchor?.rawValue ?? 0
            var clauses: [String] = []
            var filterArguments: StatementArguments = []
            for (identifier, source) in filters.sorted(by: { $0.key < $1.key }) {
                guard let typeID = try Self.typeID(db, identifier) else { continue }
                if let source {
                    clauses.append("(type_id = ? AND source_id = (SELECT id FROM source WHERE bundle_identifier = ?))")
                    filterArguments += [typeID, source]
                } else {
                    clauses.append("type_id = ?")
                    filterArguments += [typeID]
                }
            }
            guard !clauses.isEmpty else {
                return ChangeBatch(added: [], deleted: [], newAnchor: QueryAnchor(rawValue: current), hasMore: false)
            }
            let filter = "(" + clauses.joined(separator: " OR ") + ")"
            let page = try Row.fetchAll(db, sql: """
                SELECT 0, change_seq, id FROM sample WHERE change_seq > ? AND \(filter)
                UNION ALL
                SELECT 1, change_seq, id FROM tombstone WHERE change_seq > ? AND \(filter)
                ORDER BY 2 LIMIT ?
                """, arguments: [after] + filterArguments + [after] + filterArguments + [limit + 1])
            let hasMore = page.count > limit
            let rows = page.prefix(limit)
            let newAnchor = hasMore ? (rows.last![1] as Int64) : current
            let addedIDs: [Int64] = rows.filter { ($0[0] as Int) == 0 }.map { $0[2] }
            let deletedIDs: [Int64] = rows.filter { ($0[0] as Int) == 1 }.map { $0[2] }
            return ChangeBatch(
                added: try addedObjects(db, addedIDs), deleted: try tombstones(db, deletedIDs),
                newAnchor: QueryAnchor(rawValue: newAnchor), hasMore: hasMore)
        }
    }

    public func purgeTombstones(deletedBefore cutoff: Date) throws(HealthStoreError) -> Int {
        try write { db in
            let micros = SQLiteCoding.micros(cutoff)
            guard let newest = try Int64.fetchOne(db, sql: "SELECT max(change_seq) FROM tombstone WHERE deleted_at < ?", arguments: [micros]) else {
                return 0
            }
            try db.execute(sql: "DELETE FROM tombstone WHERE deleted_at < ?", arguments: [micros])
            let count = db.changesCount
            try db.execute(sql: "UPDATE store_state SET purged_through_seq = max(purged_through_seq, ?) WHERE id = 1", arguments: [newest])
            return count
        }
    }

    /// Added objects in change order: quantity samples and whole correlations.
    private func addedObjects(_ db: Database, _ ids: [Int64]) throws -> [HealthObject] {
        guard !ids.isEmpty else { return [] }
        let marks = SQLitePredicate.marks(ids.count)
        var byID: [Int64: HealthObject] = [:]
        let quantityRows = try rows(db, where: "s.id IN (\(marks)) AND s.is_correlation = 0", StatementArguments(ids))
        let decoder = SQLiteRowDecoder(db: db, engine: self)
        for row in quantityRows {
            if let sample = try decoder.sample(row) { byID[row.id] = .quantity(sample) }
        }
        let correlationIDs = Set(ids).subtracting(quantityRows.map { $0.id })
        if !correlationIDs.isEmpty {
            let list = Array(correlationIDs)
            let correlations = try loadCorrelations(db, where: "s.id IN (\(SQLitePredicate.marks(list.count)))", StatementArguments(list), order: "s.id")
            let uuidToID = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT uuid, id FROM sample WHERE id IN (\(SQLitePredicate.marks(list.count)))", arguments: StatementArguments(list)).map { (SQLiteCoding.uuid($0[0]), $0[1] as Int64) })
            for correlation in correlations { if let id = uuidToID[correlation.uuid] { byID[id] = .correlation(correlation) } }
        }
        return ids.compactMap { byID[$0] }
    }

    private func tombstones(_ db: Database, _ ids: [Int64]) throws -> [DeletedObject] {
        guard !ids.isEmpty else { return [] }
        return try Row.fetchAll(db, sql: """
            SELECT tb.uuid, t.identifier, tb.sync_identifier, tb.sync_version, tb.deleted_at
            FROM tombstone tb JOIN sample_type t ON t.id = tb.type_id
            WHERE tb.id IN (\(SQLitePredicate.marks(ids.count))) ORDER BY tb.change_seq
            """, arguments: StatementArguments(ids)).map {
            DeletedObject(uuid: SQLiteCoding.uuid($0[0]), typeIdentifier: $0[1], syncIdentifier: $0[2], syncVersion: $0[3], deletedAt: SQLiteCoding.date($0[4]))
        }
    }
}
