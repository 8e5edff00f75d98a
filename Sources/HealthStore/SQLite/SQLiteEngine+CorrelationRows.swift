import Foundation
import GRDB

/// Flat reads of correlations (``CorrelationColumns``): one SQL row per correlation, each value a correlated
/// sub-select on the index `sample_correlation`, each metadata value SQLite's `json_extract` of the stored JSON
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
    /// sync identifier and version, then each value a correlated sub-select on the index `sample_correlation`, then each
    /// metadata value SQLite's `json_extract`; and how a row of them becomes a ``CorrelationRow``.
    struct FlatSelect {
        let columns: String
        /// The arguments of the value sub-selects, bound before any of the statement's own.
        let arguments: StatementArguments
        /// How many result columns ``columns`` holds.
        let count: Int
        private let metadata: [MetadataKey]
        private let valueCount: Int

        /// Each stored device read once a statement (`device.payload`), by its id.
        typealias Devices = [Int64: HealthDevice?]

        init(_ db: Database, _ flat: CorrelationColumns, _ valueSources: [String?]) throws {
            precondition(valueSources.count == flat.values.count, "one source restriction per value column")
            var select = ["s.uuid", "s.start_at", "s.device_id", "s.sync_identifier", "s.sync_version"]
            var arguments: StatementArguments = []
            for (type, source) in zip(flat.values, valueSources) {
                guard let typeID = try SQLiteEngine.typeID(db, type.identifier) else {
                    select.append("NULL")
                    continue
                }
                let restriction = source == nil ? "" : " AND m.source_id = (SELECT id FROM source WHERE bundle_identifier = ?)"
                select.append("(SELECT m.value FROM sample m WHERE m.correlation_id = s.id AND m.type_id = ?\(restriction) ORDER BY m.id LIMIT 1)")
                arguments += [typeID]
                if let source { arguments += [source] }
            }
            for key in flat.metadata {
                select.append(SQLiteCoding.extract(key.name, from: "s.metadata"))
            }
            columns = select.joined(separator: ", ")
            self.arguments = arguments
            count = select.count
            metadata = flat.metadata
            valueCount = flat.values.count
        }

        /// The correlation in `row`'s columns from `start` on.
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
            var values: [Double?] = []
            values.reserveCapacity(valueCount)
            for index in 0 ..< valueCount { values.append(row[start + 5 + index]) }
            var metadataValues: [MetadataValue?] = []
            metadataValues.reserveCapacity(metadata.count)
            for (offset, key) in metadata.enumerated() {
                metadataValues.append(SQLiteEngine.metadataValue(row[start + 5 + valueCount + offset], kind: key.kind))
            }
            return CorrelationRow(
                uuid: SQLiteCoding.uuid(row[start]), startDate: SQLiteCoding.date(row[start + 1]), values: values, metadata: metadataValues,
                syncIdentifier: row[start + 3], syncVersion: row[start + 4], device: device)
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
