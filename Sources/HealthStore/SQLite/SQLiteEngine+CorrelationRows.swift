import Foundation
import GRDB

/// Flat reads of correlations (``CorrelationColumns``): one SQL row per correlation, each value a correlated
/// sub-select on the index `sample_correlation` (for a page of the feed, one scan of that index a run of rows,
/// ``FlatSelect/ValueRead``), each metadata value SQLite's `json_extract` of the stored JSON
/// (``SQLiteCoding/json(_:)``), so nothing is decoded that the reader did not ask for.
extension SQLiteEngine {
    /// The correlations `query` selects, flat; `valueSources[i]`, when not nil, restricts `columns.values[i]` to
    /// the samples of that source (the reader's own, for a type it may not read).
    public func correlationRows(_ query: CorrelationQuery, columns: CorrelationColumns, valueSources: [String?]) throws(HealthStoreError) -> [CorrelationRow] {
        try read { db in
            guard let typeID = try Self.typeID(db, query.type.identifier) else { return [] }
            let predicate = SQLitePredicate(query.predicate)
            return try flatRows(
                db, columns, valueSources, where: "s.type_id = ? AND \(predicate.sql)", [typeID] + predicate.arguments,
                order: SQLitePredicate.order(query.sort), limit: query.limit)
        }
    }

    func flatRows(
        _ db: Database, _ columns: CorrelationColumns, _ valueSources: [String?], where condition: String,
        _ conditionArguments: StatementArguments, order: String, limit: Int? = nil
    ) throws -> [CorrelationRow] {
        let flat = try FlatSelect(db, columns, valueSources)
        var sql = "SELECT \(flat.columns) FROM sample s WHERE \(condition) ORDER BY \(order)"
        if let limit { sql += " LIMIT \(max(0, limit))" }
        var devices = FlatSelect.Devices()
        var rows: [CorrelationRow] = []
        let cursor = try Row.fetchCursor(db.makeStatement(sql: sql), arguments: flat.arguments + conditionArguments)
        while let row = try cursor.next() {
            rows.append(try flat.row(row, from: 0, devices: &devices, db))
        }
        return rows
    }

    /// The result columns of a flat read of the correlation aliased `s` (``CorrelationColumns``): its uuid, start, device,
    /// sync identifier and version, id, then each value (``ValueRead``), then each metadata value SQLite's
    /// `json_extract`; and how a row of them becomes a ``CorrelationRow``.
    struct FlatSelect {
        /// How the value of each member or linked type is read: the first sample of the correlation of that type (by
        /// id), of the column's source when it has one.
        enum ValueRead {
            /// A correlated sub-select per value column, on the index `sample_correlation`: a read in any order.
            case subselect
            /// After a run of rows, one scan of `sample_correlation` over their range of correlation ids
            /// (``readValues(into:ids:_:)``): a page of the feed, whose ids are as close together as its changes —
            /// ids and `change_seq` both grow with each insert, and neither changes after it. The sub-selects opened
            /// two cursors each and walked one member after the other per column: 3 µs of the 10 cuffd spent on a
            /// reading of `ChangeColumns` (Benchmarks/RESULTS.md, "The feed's page in one statement").
            case memberScan
        }

        /// The rows whose values one scan reads (``ValueRead/memberScan``): few enough that their members' pages are
        /// still in SQLite's page cache (2 MiB a reading connection; a reading and its members take about 1 KiB), so
        /// that the scan does not read them from the file a second time.
        static let memberRun = 256

        let columns: String
        /// The arguments of the value sub-selects, bound before any of the statement's own.
        let arguments: StatementArguments
        /// How many result columns ``columns`` holds.
        let count: Int
        private let valueRead: ValueRead
        private let metadata: [MetadataKey]
        /// How many value columns each row has.
        private let valueCount: Int
        /// For ``ValueRead/memberScan``, the value columns of each type, with the id of the source each is restricted
        /// to; a column restricted to a source the store has never had is in none (that source wrote no sample).
        private let memberColumns: [Int64: [(column: Int, source: Int64?)]]
        /// The value columns among ``columns``: none when they are read by ``ValueRead/memberScan``.
        private let selectedValues: Int

        /// Each stored device read once a statement (`device.payload`), by its id.
        typealias Devices = [Int64: HealthDevice?]

        init(_ db: Database, _ flat: CorrelationColumns, _ valueSources: [String?], values valueRead: ValueRead = .subselect) throws {
            precondition(valueSources.count == flat.values.count, "one source restriction per value column")
            var select = ["s.uuid", "s.start_at", "s.device_id", "s.sync_identifier", "s.sync_version", "s.id"]
            var arguments: StatementArguments = []
            var memberColumns: [Int64: [(column: Int, source: Int64?)]] = [:]
            for (column, (type, source)) in zip(flat.values, valueSources).enumerated() {
                let typeID = try SQLiteEngine.typeID(db, type.identifier)
                guard case .subselect = valueRead else {
                    guard let typeID else { continue }
                    if let source {
                        guard let sourceID = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM source WHERE bundle_identifier = ?"), arguments: [source])
                        else { continue }
                        memberColumns[typeID, default: []].append((column, sourceID))
                    } else {
                        memberColumns[typeID, default: []].append((column, nil))
                    }
                    continue
                }
                guard let typeID else {
                    select.append("NULL")
                    continue
                }
                let restriction = source == nil ? "" : " AND m.source_id = (SELECT id FROM source WHERE bundle_identifier = ?)"
                select.append("(SELECT m.value FROM sample m WHERE m.correlation_id = s.id AND m.type_id = ?\(restriction) ORDER BY m.id LIMIT 1)")
                arguments += [typeID]
                if let source { arguments += [source] }
            }
            selectedValues = select.count - 6
            for key in flat.metadata {
                select.append(SQLiteCoding.extract(key.name, from: "s.metadata"))
            }
            columns = select.joined(separator: ", ")
            self.arguments = arguments
            count = select.count
            self.valueRead = valueRead
            metadata = flat.metadata
            valueCount = flat.values.count
            self.memberColumns = memberColumns
        }

        /// The id of the correlation in `row`'s columns from `start` on.
        func id(_ row: Row, from start: Int) -> Int64 { row[start + 5] }

        /// The correlation in `row`'s columns from `start` on; its values nil until ``readValues(into:ids:_:)`` reads
        /// them, when they are read by ``ValueRead/memberScan``.
        func row(_ row: Row, from start: Int, devices: inout Devices, _ db: Database) throws -> CorrelationRow {
            var device: HealthDevice?
            if let deviceID: Int64 = row[start + 2] {
                if let known = devices[deviceID] {
                    device = known
                } else {
                    device = try String.fetchOne(db.cachedStatement(sql: "SELECT payload FROM device WHERE id = ?"), arguments: [deviceID])
                        .flatMap(SQLiteCoding.device)
                    devices[deviceID] = device
                }
            }
            var values: [Double?] = Array(repeating: nil, count: valueCount)
            for index in 0 ..< selectedValues { values[index] = row[start + 6 + index] }
            var metadataValues: [MetadataValue?] = []
            metadataValues.reserveCapacity(metadata.count)
            for (offset, key) in metadata.enumerated() {
                metadataValues.append(SQLiteEngine.metadataValue(row[start + 6 + selectedValues + offset], kind: key.kind))
            }
            return CorrelationRow(
                uuid: SQLiteCoding.uuid(row[start]), startDate: SQLiteCoding.date(row[start + 1]), values: values, metadata: metadataValues,
                syncIdentifier: row[start + 3], syncVersion: row[start + 4], device: device)
        }

        /// The values of the correlations with ids `ids`, read by ``ValueRead/memberScan`` into `rows` at the ids'
        /// indices: every sample whose correlation id lies between the least and the greatest of `ids`, along
        /// `sample_correlation` — by correlation, then id —, each the value of its correlation's column of its type
        /// (and source) unless an earlier one was.
        func readValues(into rows: inout [CorrelationRow], ids: ArraySlice<Int64>, _ db: Database) throws {
            guard case .memberScan = valueRead, let least = ids.min(), let greatest = ids.max() else { return }
            let positions = Dictionary(zip(ids, ids.indices), uniquingKeysWith: { first, _ in first })
            let members = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT m.correlation_id, m.type_id, m.source_id, m.value FROM sample m
                WHERE m.correlation_id BETWEEN ? AND ? ORDER BY m.correlation_id, m.id
                """), arguments: [least, greatest])
            while let member = try members.next() {
                guard let position = positions[member[0]], let columns = memberColumns[member[1]] else { continue }
                let source: Int64 = member[2]
                for (column, restriction) in columns where rows[position].values[column] == nil && (restriction == nil || restriction == source) {
                    rows[position].values[column] = member[3]
                }
            }
        }
    }

    /// A value `json_extract` took from the metadata JSON, as the kind its key declares; nil when absent or of
    /// another kind (the rule of ``SQLiteCoding/metadata(_:registry:)``). JSON `true`/`false` arrive as 1/0, dates
    /// as integer microseconds.
    fileprivate static func metadataValue(_ value: DatabaseValue, kind: MetadataValueKind) -> MetadataValue? {
        switch (kind, value.storage) {
        case (.string, .string(let text)): .string(text)
        case (.integer, .int64(let integer)): .integer(integer)
        case (.double, .double(let number)): .double(number)
        case (.double, .int64(let integer)): .double(Double(integer))
        case (.bool, .int64(let integer)): .bool(integer != 0)
        case (.date, .int64(let micros)): .date(SQLiteCoding.date(micros))
        default: nil
        }
    }
}
