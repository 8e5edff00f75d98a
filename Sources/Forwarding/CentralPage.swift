import ReadingColumns

/// What writing a page into a central table (`readings` by ``CentralWriter``, `heart_rates` by ``HeartRateWriter``)
/// shares: the page's rows are copied into a table of the session's own in COPY's binary form (``BinaryCopyRows``) —
/// nothing for the server to parse, no statement per row —, then one `INSERT … SELECT` moves them into the central
/// table, where the policy's `WITH CHECK` and the primary key apply to each as to any INSERT. The page's few devices
/// travel once, as array parameters that each row points into (`WITH ORDINALITY`, §7.2.1.4).
enum CentralPage {
    /// How much of a page's COPY is written before it is handed to libpq.
    static let copyPiece = 64 * 1024

    /// Makes the session's page tables (``CentralWriter/pageTable``, ``HeartRateWriter/pageTable``): once per session,
    /// before its first page. A role refused temporary tables in the database is told how to allow it.
    static func prepare(_ database: PostgresConnection) throws {
        do {
            try database.execute(CentralWriter.pageTable + ";\n" + HeartRateWriter.pageTable)
        } catch {
            guard error.sqlState == PostgresError.insufficientPrivilege else { throw error }
            let names = try database.execute("SELECT current_database(), current_user").first ?? []
            throw TemporaryTablesRefused(database: names.first.flatMap { $0 } ?? "", role: names.last.flatMap { $0 } ?? "")
        }
    }

    /// Copies `rows` by `sql` (a `COPY … FROM STDIN (FORMAT binary)` into a page table), each written by `write` with
    /// its device's number among the page's devices, from 1; handed to libpq a piece at a time, so that a page never
    /// sits whole in memory twice. Returns those devices' columns as text arrays, in the order of
    /// ``ReadingRecord/deviceFields``, for the `unnest … WITH ORDINALITY` that joins them.
    static func copy<Row>(
        _ rows: [Row], device: (Row) -> [String: String], _ sql: String, into database: PostgresConnection,
        _ write: (inout BinaryCopyRows, Row, Int32) -> Void
    ) throws(PostgresError) -> [PostgresParameter] {
        let (devices, numbers) = ReadingColumns.deviceTable(rows.map(device))
        _ = try database.copy(sql) { (copy) throws(PostgresError) in
            var buffer = BinaryCopyRows(capacity: copyPiece + 1024)
            for (row, number) in zip(rows, numbers) {
                write(&buffer, row, Int32(number + 1))
                if buffer.bytes.count >= copyPiece {
                    try copy.send(buffer.bytes)
                    buffer.removeAll()
                }
            }
            buffer.end()
            try copy.send(buffer.bytes)
        }
        return ReadingRecord.deviceFields.map { field in PostgresParameter.text(PostgresArray.literal(devices.map { $0[field] })) }
    }

    /// The INSERT of a page's `rows` (a SELECT of `columns`, the sync identifier first) into `table`.
    static func insert(into table: String, _ columns: [String], _ rows: String) -> String {
        """
        INSERT INTO \(table) (\(columns.joined(separator: ", ")))
        \(rows)
        """
    }

    /// Runs `insert` (of ``insert(into:_:_:)``) and returns how many rows it inserted. First as a plain INSERT, under a
    /// savepoint: a backlog's pages meet no row already central, and the server inserts a row with less work than under
    /// `ON CONFLICT`, which inserts each one speculatively — the key looked up first, the row confirmed after
    /// (PostgreSQL 15 source, `ExecInsert`, "speculative insertion"). When one of them is central — a page sent again, a
    /// revision, another gateway's reading —, the INSERT fails on the primary key (SQLSTATE 23505), what it wrote is
    /// rolled back to the savepoint, and the page goes in with `ON CONFLICT (sync_identifier) DO NOTHING`, which
    /// checks no policy on the row it meets: the rows written are the same either way.
    static func insertNew(_ insert: String, _ parameters: [PostgresParameter], into database: PostgresConnection) throws(PostgresError) -> Int {
        try database.execute("SAVEPOINT page")
        do {
            return try database.executeCountingRows(insert, parameters: parameters)
        } catch {
            guard error.sqlState == PostgresError.uniqueViolation else { throw error }
            try database.execute("ROLLBACK TO SAVEPOINT page")
            return try database.executeCountingRows(insert + "\nON CONFLICT (sync_identifier) DO NOTHING", parameters: parameters)
        }
    }

    /// The UPDATE of `table`'s rows of this gateway that the page's `rows` hold a newer revision of, or bring back at
    /// their revision after a deletion.
    static func revise(_ table: String, _ columns: [String], _ rows: String) -> String {
        """
        UPDATE \(table) AS r SET (\(columns.dropFirst().joined(separator: ", ")), deleted_at, received_at)
            = (\(columns.dropFirst().map { "n." + $0 }.joined(separator: ", ")), NULL, now())
        FROM (\(rows)) AS n (\(columns.joined(separator: ", ")))
        WHERE r.sync_identifier = n.sync_identifier AND r.gateway = n.gateway
            AND (n.sync_version > r.sync_version OR (r.deleted_at IS NOT NULL AND n.sync_version >= r.sync_version))
        """
    }

    /// Marks `table`'s rows of the page's deletions deleted, each only at the revision it names or an older one.
    static func delete(_ deleted: [(syncIdentifier: String, syncVersion: Int64)], from table: String, in database: PostgresConnection) throws(PostgresError) {
        guard !deleted.isEmpty else { return }
        try database.execute("""
            UPDATE \(table) SET deleted_at = now()
            FROM unnest($1::text[], $2::bigint[]) AS gone (id, version)
            WHERE sync_identifier = gone.id AND sync_version <= gone.version AND deleted_at IS NULL
            """, parameters: [
                .text(PostgresArray.literal(deleted.map(\.syncIdentifier))), .binary(PostgresArray.binary(deleted.map { Optional($0.syncVersion) })),
            ])
    }

    /// Of rows sharing a sync identifier within a page, the newest revision, in the place of the first: an UPDATE …
    /// FROM joined to two rows applies either one (UPDATE, "Notes"). The rest in the page's order.
    static func newest<Row>(_ rows: [Row], identifier: KeyPath<Row, String>, version: KeyPath<Row, Int64>) -> [Row] {
        var kept: [Row] = []
        kept.reserveCapacity(rows.count)
        var places: [String: Int] = [:]
        places.reserveCapacity(rows.count)
        for row in rows {
            if let place = places[row[keyPath: identifier]] {
                if row[keyPath: version] >= kept[place][keyPath: version] { kept[place] = row }
            } else {
                places[row[keyPath: identifier]] = kept.count
                kept.append(row)
            }
        }
        return kept
    }
}

/// The gateway's role may not create temporary tables in the central database, which each page is copied into first
/// (``CentralPage/prepare(_:)``): PUBLIC may by default, so an administrator revoked it.
struct TemporaryTablesRefused: Error, CustomStringConvertible {
    let database: String
    let role: String

    var description: String {
        "role \(role) may not create temporary tables in database \(database), and cuff-forward copies each page into one; "
            + "an administrator runs GRANT TEMPORARY ON DATABASE \(database) TO \(role)"
    }
}
