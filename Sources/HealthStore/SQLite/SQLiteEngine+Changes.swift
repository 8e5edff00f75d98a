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
    public func changes(_ filters: [String: ChangeScope], since anchor: QueryAnchor?, limit: Int) throws(HealthStoreError) -> ChangeBatch {
        try read { db in
            let page = try changePage(db, filters, since: anchor, limit: limit)
            return ChangeBatch(
                added: try addedObjects(db, page.addedIDs), deleted: try tombstones(db, page.deletedIDs),
                newAnchor: page.newAnchor, hasMore: page.hasMore)
        }
    }

    /// The feed of one correlation type read flat (``CorrelationColumns``): the page ``changes(_:since:limit:)``
    /// would answer for `filters` naming only that type. One statement reads the page: the type's rows, flat, and its
    /// tombstones, each along the index of its `change_seq`, merged in that order (SQLite's MERGE of a compound
    /// SELECT, no sort) and stopped after `limit + 1` — each row visited once —; another the values of each run of its
    /// correlations (``FlatSelect/ValueRead/memberScan``).
    public func correlationRowChanges(
        _ filters: [String: ChangeScope], since anchor: QueryAnchor?, limit: Int, columns: CorrelationColumns, valueSources: [String?]
    ) throws(HealthStoreError) -> CorrelationRowBatch {
        try read { db in
            let current = try pageStart(db, since: anchor)
            let after = anchor?.rawValue ?? 0
            let flat = try FlatSelect(db, columns, valueSources, values: .memberScan)
            // `+s`, `+t`: SQLite's unary plus keeps the planner off `sample_type_start` (which would read every
            // correlation of the type and sort them) and on `change_seq`'s own index (SQLite, "The SQLite Query
            // Optimizer Overview", §"Disqualifying WHERE clause terms using unary-+").
            let samples = try changeFilter(db, filters, alias: "+s", person: SQLiteSchema.person("s.metadata"))
            let deletions = try changeFilter(db, filters, alias: "+t", person: "t.person")
            let statement = try db.makeStatement(sql: """
                SELECT 0, s.change_seq, \(flat.columns) FROM sample s WHERE s.change_seq > ? AND \(samples.sql)
                UNION ALL
                SELECT 1, t.change_seq, t.id\(String(repeating: ", NULL", count: flat.count - 1)) FROM tombstone t
                WHERE t.change_seq > ? AND \(deletions.sql)
                ORDER BY 2 LIMIT ?
                """)
            var added: [CorrelationRow] = []
            var addedIDs: [Int64] = []
            var deletedIDs: [Int64] = []
            var last: Int64?
            var devices = FlatSelect.Devices()
            let cursor = try Row.fetchCursor(
                statement, arguments: flat.arguments + [after] + samples.arguments + [after] + deletions.arguments + [limit + 1])
            var count = 0, hasMore = false, valuesRead = 0
            while let row = try cursor.next() {
                guard count < limit else {
                    hasMore = true
                    break
                }
                count += 1
                last = row[1]
                if row[0] as Int == 0 {
                    added.append(try flat.row(row, from: 2, devices: &devices, db))
                    addedIDs.append(flat.id(row, from: 2))
                    if addedIDs.count - valuesRead == FlatSelect.memberRun {
                        try flat.readValues(into: &added, ids: addedIDs[valuesRead...], db)
                        valuesRead = addedIDs.count
                    }
                } else {
                    deletedIDs.append(row[2])
                }
            }
            try flat.readValues(into: &added, ids: addedIDs[valuesRead...], db)
            let newAnchor = hasMore ? last! : current
            return CorrelationRowBatch(added: added, deleted: try tombstones(db, deletedIDs), newAnchor: QueryAnchor(rawValue: newAnchor), hasMore: hasMore)
        }
    }

    /// The condition selecting `filters`' types, each in its scope, on a table aliased `alias` (`+s` for `s` with its
    /// columns kept off indexes) whose rows' person is `person` (SQL); `0` when the store has none of the types.
    private func changeFilter(_ db: Database, _ filters: [String: ChangeScope], alias: String, person: String) throws -> (sql: String, arguments: StatementArguments) {
        var clauses: [String] = []
        var arguments: StatementArguments = []
        for (identifier, scope) in filters.sorted(by: { $0.key < $1.key }) {
            guard let typeID = try Self.typeID(db, identifier) else { continue }
            var clause = ["\(alias).type_id = ?"]
            arguments += [typeID]
            if let source = scope.source {
                clause.append("\(alias).source_id = (SELECT id FROM source WHERE bundle_identifier = ?)")
                arguments += [source]
            }
            if let people = scope.people {
                clause.append("\(person) IN (\(SQLitePredicate.marks(people.count)))")
                arguments += StatementArguments(people.sorted())
            }
            clauses.append("(" + clause.joined(separator: " AND ") + ")")
        }
        return (clauses.isEmpty ? "0" : "(" + clauses.joined(separator: " OR ") + ")", arguments)
    }

    /// Which rows one page of the feed holds: sample and tombstone ids in commit order, the anchor after them and whether more wait, all read in one snapshot.
    private func changePage(_ db: Database, _ filters: [String: ChangeScope], since anchor: QueryAnchor?, limit: Int) throws -> (
        addedIDs: [Int64], deletedIDs: [Int64], newAnchor: QueryAnchor, hasMore: Bool
    ) {
        let current = try pageStart(db, since: anchor)
        let after = anchor?.rawValue ?? 0
        // `+t`: along the index of `change_seq`, not the type's (see correlationRowChanges).
        let samples = try changeFilter(db, filters, alias: "+t", person: SQLiteSchema.person("t.metadata"))
        let tombstones = try changeFilter(db, filters, alias: "+t", person: "t.person")
        let page = try Row.fetchAll(db, sql: """
            SELECT 0, t.change_seq, t.id FROM sample t WHERE t.change_seq > ? AND \(samples.sql)
            UNION ALL
            SELECT 1, t.change_seq, t.id FROM tombstone t WHERE t.change_seq > ? AND \(tombstones.sql)
            \(try seriesChanges(db, filters, after: after, limit: limit))
            ORDER BY 2 LIMIT ?
            """, arguments: [after] + samples.arguments + [after] + tombstones.arguments + [limit + 1])
        let hasMore = page.count > limit
        let rows = page.prefix(limit)
        let newAnchor = hasMore ? (rows.last![1] as Int64) : current
        let added = rows.filter { ($0[0] as Int) == 0 }
        let deletedIDs: [Int64] = rows.filter { ($0[0] as Int) == 1 }.map { $0[2] }
        return (added.map { $0[2] }, deletedIDs, QueryAnchor(rawValue: newAnchor), hasMore)
    }

    /// The store's change counter, read in the page's snapshot; an anchor below the newest purged tombstone throws
    /// ``HealthStoreError/anchorExpired(_:)``.
    private func pageStart(_ db: Database, since anchor: QueryAnchor?) throws -> Int64 {
        let state = try Row.fetchOne(db, sql: "SELECT change_seq, purged_through_seq FROM store_state WHERE id = 1")!
        let purged: Int64 = state[1]
        if let anchor, anchor.rawValue < purged { throw HealthStoreError.anchorExpired(anchor) }
        return state[0]
    }

    /// The arm of ``changePage(_:_:since:limit:)`` reading the values of series rows (migration v13) changed after
    /// `after`, each at its own change sequence, so a page ends between two values of a row as it does between two
    /// rows. A row's values have the sequences `first_seq` to `last_seq` and no other row's lie between them, so the
    /// rows of the filters' types, sources and people with the lowest `last_seq` above `after` hold the page's values —
    /// the first of them perhaps some seen already, the others `limit + 1` values at least; their ids are written into
    /// the SQL.
    private func seriesChanges(_ db: Database, _ filters: [String: ChangeScope], after: Int64, limit: Int) throws -> String {
        guard try Self.hasSeries(db) else { return "" }
        let filter = try changeFilter(db, filters, alias: "r", person: SQLiteSchema.person("r.metadata"))
        let rows = try Row.fetchCursor(
            db, sql: "SELECT r.id, r.n FROM sample_series r WHERE r.last_seq > ? AND \(filter.sql) ORDER BY r.last_seq",
            arguments: [after] + filter.arguments)
        var rowIDs: [Int64] = []
        var values = 0
        while values <= limit, let row = try rows.next() {
            if !rowIDs.isEmpty { values += row[1] as Int }
            rowIDs.append(row[0])
        }
        guard !rowIDs.isEmpty else { return "" }
        return """
            UNION ALL
            SELECT 0, t.change_seq, t.id FROM (\(SQLiteSchema.seriesValues(where: "r.id IN (\(rowIDs.map(String.init).joined(separator: ",")))"))) t
            WHERE t.change_seq > \(after)
            """
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
        var quantityRows = try rows(db, where: "s.id IN (\(marks)) AND s.is_correlation = 0", StatementArguments(ids))
        // Values of series rows (migration v13): their ids are negative and name their rows.
        let seriesRowIDs = Set(ids.filter { $0 < 0 }.map(Self.seriesRowID))
        if !seriesRowIDs.isEmpty {
            let series = SQLiteSchema.seriesValues(where: "r.id IN (\(seriesRowIDs.sorted().map(String.init).joined(separator: ",")))")
            quantityRows += try rows(db, from: "(\(series)) s", where: "s.id IN (\(marks))", StatementArguments(ids))
        }
        let decoder = SQLiteRowDecoder(db: db, engine: self)
        for row in quantityRows {
            if let sample = try decoder.sample(row) { byID[row.id] = .quantity(sample) }
        }
        let correlationIDs = Set(ids.filter { $0 > 0 }).subtracting(quantityRows.map { $0.id })
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
