/// Quantity series rows (migration v13; docs/health-store.md, "Heart-rate series"): a sensor's heart-rate values stored
/// many to a row, as HealthKit's quantity series samples keep theirs (docs/reference/HEALTH-STORE.md §2), and read
/// back as one sample each, the row expanded in SQL (``samples(series:)``) wherever `sample` rows are read.
extension SQLiteSchema {
    /// v13: `sample_series`, one row a window's values of one device, source, person, sensor contact and 15-minute
    /// rollup slot: what they share in columns, each value's own fields in `series_values`
    /// (``SQLiteSeriesValue/encode(_:)``), and the rollup's count, sum, minimum, maximum and latest value of them, so a
    /// slot is recomputed from the row without reading its values. A value's UUID and sync identifier are derived
    /// (``Foundation/UUID/sensorValue(syncIdentifier:at:)``, `sync_prefix` and its time), and each keeps its own change
    /// sequence, `first_seq` to `last_seq`. Rows of a slot never span more than the slot (15 minutes), which bounds
    /// each look-up by time. Per-value rows stored before stay as they are and read as before.
    static let seriesV13 = """
        CREATE TABLE sample_series (
            id INTEGER PRIMARY KEY,
            type_id INTEGER NOT NULL REFERENCES sample_type(id),
            source_id INTEGER NOT NULL REFERENCES source(id),
            revision_id INTEGER NOT NULL REFERENCES source_revision(id),
            device_id INTEGER NOT NULL REFERENCES device(id),
            sync_prefix TEXT NOT NULL,
            metadata TEXT,
            part INTEGER NOT NULL,
            start_at INTEGER NOT NULL,
            end_at INTEGER NOT NULL,
            n INTEGER NOT NULL,
            total REAL NOT NULL,
            lo REAL NOT NULL,
            hi REAL NOT NULL,
            last_value REAL NOT NULL,
            first_seq INTEGER NOT NULL,
            last_seq INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            series_values BLOB NOT NULL,
            CHECK (start_at <= end_at AND end_at - start_at < \(rollupSlotMicros)),
            CHECK (first_seq <= last_seq AND n > 0)
        ) STRICT;
        CREATE INDEX sample_series_type_start ON sample_series(type_id, start_at);
        CREATE UNIQUE INDEX sample_series_last_seq ON sample_series(last_seq);
        """

    /// The SQL function expanding a series row: `cuffd_series(series_values, start_at, first_seq, metadata)` is a JSON
    /// array of its values, each `[time, change sequence, value, metadata]` (``SQLiteEngine/seriesFunctions()``).
    static let seriesFunction = "cuffd_series"
    /// The SQL function of a series value's UUID: `cuffd_series_uuid(sync identifier, time)`.
    static let seriesUUIDFunction = "cuffd_series_uuid"

    /// The columns of `sample` that reads select, in the order ``seriesValues(where:)`` gives them.
    private static let sampleColumns = """
        id, uuid, type_id, is_correlation, value, start_at, end_at, time_zone, source_id, revision_id, device_id, metadata,
        sync_identifier, sync_version, correlation_id, is_member, created_at, change_seq
        """

    /// The values of the series rows `r` that `rowFilter` selects, as `sample` rows: the id of the `k`th value of row
    /// `r.id` is `-(r.id × 65 536 + k)` (negative, so never a `sample` row's; valid within one snapshot).
    static func seriesValues(where rowFilter: String) -> String {
        let time = "(j.value ->> 0)"
        return """
            SELECT -(r.id * 65536 + j.key) AS id, \(seriesUUIDFunction)(r.sync_prefix || \(time), \(time)) AS uuid, r.type_id AS type_id,
                0 AS is_correlation, j.value ->> 2 AS value, \(time) AS start_at, \(time) AS end_at, NULL AS time_zone,
                r.source_id AS source_id, r.revision_id AS revision_id, r.device_id AS device_id, j.value ->> 3 AS metadata,
                r.sync_prefix || \(time) AS sync_identifier, 1 AS sync_version, NULL AS correlation_id, 0 AS is_member,
                r.created_at AS created_at, j.value ->> 1 AS change_seq
            FROM sample_series r, json_each(\(seriesFunction)(r.series_values, r.start_at, r.first_seq, r.metadata)) j
            WHERE \(rowFilter)
            """
    }

    /// The table expression of quantity samples aliased `s`: `sample` alone when no series row can hold what is read
    /// (`series` nil), else `sample`'s rows and the values of the series rows `series` selects.
    static func samples(series: String?) -> String {
        guard let series else { return "sample s" }
        return "(SELECT \(sampleColumns) FROM sample UNION ALL \(seriesValues(where: series))) s"
    }

    /// The table expression statistics sum, aliased `s`, when series rows of the type exist: `sample`'s columns and, for
    /// each row, how many values it stands for and their sum, minimum, maximum, latest time and latest value — a
    /// `sample` row (with `hint`) or a series value for one, and a series row that `rows` selects and that no time of
    /// `boundaries` (microseconds) falls inside for all its values, when the predicate filters values by nothing their
    /// row does not hold (`whole`): every value of such a row lies on the same side of every bucket, layer and date bound,
    /// so the row is summed from its own columns without reading its values. The others' values are read one by one.
    static func statisticsSamples(rows: String, boundaries: [Int64], whole: Bool, hint: String) -> String {
        let weights = "value IS NOT NULL, value, value, value, start_at, value"
        let inside = "EXISTS (SELECT 1 FROM json_each('[\(boundaries.map(String.init).joined(separator: ","))]') WHERE value > r.start_at AND value <= r.end_at)"
        var arms = [
            "SELECT \(sampleColumns), value IS NOT NULL AS n, value AS total, value AS lo, value AS hi, start_at AS last_at, value AS last_value FROM sample\(hint)",
            "SELECT *, \(weights) FROM (\(seriesValues(where: whole ? "\(rows) AND \(inside)" : rows)))",
        ]
        if whole {
            arms.append("""
                SELECT NULL, NULL, r.type_id, 0, r.last_value, r.start_at, r.end_at, NULL, r.source_id, r.revision_id, r.device_id, r.metadata,
                    NULL, NULL, NULL, 0, r.created_at, NULL, r.n, r.total, r.lo, r.hi, r.end_at, r.last_value
                FROM sample_series r WHERE \(rows) AND NOT \(inside)
                """)
        }
        return "(" + arms.joined(separator: " UNION ALL ") + ") s"
    }

    /// The series rows of type `typeID` holding values timed in `[from, before)` (nil: open), found along
    /// `sample_series_type_start` (a row starts less than a slot before its last value); the numbers are written into the
    /// SQL, so that it binds no parameter wherever it stands in a statement.
    static func seriesRows(_ typeID: Int64, from: Int64? = nil, before: Int64? = nil) -> String {
        var clauses = ["r.type_id = \(typeID)"]
        if let from { clauses.append("r.start_at > \(from - rollupSlotMicros) AND r.end_at >= \(from)") }
        if let before { clauses.append("r.start_at < \(before)") }
        return clauses.joined(separator: " AND ")
    }
}
