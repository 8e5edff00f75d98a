import Foundation
import GRDB

/// Renders a ``SamplePredicate`` as an SQL condition on the `sample` table aliased `alias`.
struct SQLitePredicate {
    var clauses: [String] = []
    var arguments: StatementArguments = []

    init(_ predicate: SamplePredicate, alias s: String = "s") {
        if let range = predicate.dateRange {
            if let start = range.start {
                clauses.append(range.strictStartDate ? "\(s).start_at >= ?" : "\(s).end_at >= ?")
                arguments += [SQLiteCoding.micros(start)]
            }
            if let end = range.end {
                clauses.append(range.strictEndDate ? "\(s).end_at < ?" : "\(s).start_at < ?")
                arguments += [SQLiteCoding.micros(end)]
            }
        }
        if let sources = predicate.sourceBundleIdentifiers {
            clauses.append("\(s).source_id IN (SELECT id FROM source WHERE bundle_identifier IN (\(Self.marks(sources.count))))")
            arguments += StatementArguments(Array(sources))
        }
        if let identity = predicate.deviceIdentity {
            clauses.append("\(s).device_id IN (SELECT id FROM device WHERE identity = ?)")
            arguments += [identity]
        }
        if let localIdentifier = predicate.deviceLocalIdentifier {
            clauses.append("\(s).device_id IN (SELECT id FROM device WHERE json_extract(payload, '$.localIdentifier') = ?)")
            arguments += [localIdentifier]
        }
        // Keyset bounds (SamplePosition): start date first, then the row id of the named sample; a
        // position whose sample is gone compares as the first row (before) or the last (after) of its date.
        // The plain bound ahead of the OR (`start_at <= ?`, `start_at >= ?`) is what lets SQLite seek
        // `sample_type_start` to the page: with the date bound as a parameter it cannot derive one from the OR,
        // and scanned the type's rows from its first to the page (49 ms for a page 900 000 readings deep).
        if let before = predicate.before {
            let start = SQLiteCoding.micros(before.startDate)
            clauses.append("\(s).start_at <= ? AND (\(s).start_at < ? OR (\(s).start_at = ? AND \(s).id < \(Self.rowID(of: before.uuid))))")
            arguments += [start, start, start, SQLiteCoding.blob(before.uuid)]
        }
        if let after = predicate.after {
            let start = SQLiteCoding.micros(after.startDate)
            clauses.append("\(s).start_at >= ? AND (\(s).start_at > ? OR (\(s).start_at = ? AND \(s).id > \(Self.rowID(of: after.uuid))))")
            arguments += [start, start, start, SQLiteCoding.blob(after.uuid)]
        }
        for (key, values) in predicate.metadata.sorted(by: { $0.key < $1.key }) {
            if SQLiteCoding.columnKeys.contains(key) {
                // Sync identifier and version live in columns (see SQLiteCoding.columnKeys).
                let column = key == MetadataKey.syncIdentifier.name ? "sync_identifier" : "sync_version"
                clauses.append("\(s).\(column) IN (\(Self.marks(values.count)))")
                for value in values {
                    switch value {
                    case .string(let v): arguments += [v]
                    case .integer(let v): arguments += [v]
                    default: arguments += [DatabaseValue.null]
                    }
                }
                continue
            }
            clauses.append("\(SQLiteCoding.extract(key, from: "\(s).metadata")) IN (\(Self.marks(values.count)))")
            for value in values {
                switch value {
                case .string(let v): arguments += [v]
                case .integer(let v): arguments += [v]
                case .double(let v): arguments += [v]
                case .bool(let v): arguments += [v ? 1 : 0]
                case .date(let v): arguments += [SQLiteCoding.micros(v)]
                }
            }
        }
        if let uuids = predicate.uuids {
            clauses.append("\(s).uuid IN (\(Self.marks(uuids.count)))")
            arguments += StatementArguments(uuids.map(SQLiteCoding.blob))
        }
        if predicate.excludeCorrelated {
            clauses.append("\(s).correlation_id IS NULL")
        }
        if predicate.onlyCorrelated {
            clauses.append("\(s).correlation_id IS NOT NULL")
        }
        if predicate.excludeExcluded {
            clauses.append("json_extract(\(s).metadata, '\(SQLiteSchema.exclusionPath)') IS NULL")
        }
    }

    /// `INDEXED BY sample_type_person_start` (migration v7) when `predicate` selects the samples of named people, else
    /// nothing. Without statistics of the store (it runs no `ANALYZE`), SQLite's planner takes `sample_type_start` as
    /// soon as a date range is added to a bucket's, and reads every person's samples of the range, table row by table
    /// row (30 days of one of two people's readings: 20 ms instead of 2); the hint keeps it on the person's index.
    static func personIndexHint(_ predicate: SamplePredicate) -> String {
        guard let people = predicate.metadata[MetadataKey.personIdentifier.name], !people.isEmpty,
              people.allSatisfy({ if case .string = $0 { true } else { false } }) else { return "" }
        return " INDEXED BY sample_type_person_start"
    }

    /// The id of the sample with the UUID bound next, 0 when there is none: a `sample` row's, or for a value of a series
    /// row (migration v13; `uuid` one of ``Foundation/UUID/sensorValue(syncIdentifier:at:)``), its id as read
    /// (``SQLiteSchema/seriesValues(where:)``).
    private static func rowID(of uuid: UUID) -> String {
        guard let micros = uuid.sensorValueMicros else { return "IFNULL((SELECT id FROM sample WHERE uuid = ?), 0)" }
        let series = SQLiteSchema.seriesValues(where: SQLiteEngine.seriesRows(at: micros))
        return "IFNULL((SELECT x.id FROM (SELECT id, uuid FROM sample UNION ALL SELECT id, uuid FROM (\(series))) x WHERE x.uuid = ?), 0)"
    }

    /// `AND`-joined clauses, or `1` when there is none.
    var sql: String { clauses.isEmpty ? "1" : clauses.joined(separator: " AND ") }

    static func marks(_ count: Int) -> String {
        count == 0 ? "NULL" : Array(repeating: "?", count: count).joined(separator: ", ")
    }

    static func order(_ sort: SampleSort, alias s: String = "s") -> String {
        switch sort {
        case .startDateAscending: "\(s).start_at ASC, \(s).id ASC"
        case .startDateDescending: "\(s).start_at DESC, \(s).id DESC"
        case .endDateAscending: "\(s).end_at ASC, \(s).id ASC"
        case .endDateDescending: "\(s).end_at DESC, \(s).id DESC"
        }
    }
}
