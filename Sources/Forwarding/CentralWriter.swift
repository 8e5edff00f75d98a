import ReadingColumns

/// Writes one page of the change feed into the central `readings` table, in one transaction, so that the
/// page is in PostgreSQL whole or not at all (docs/forwarding.md, "The anchor rule").
///
/// Re-sending is harmless: a sync identifier is inserted once (PostgreSQL 15 documentation, INSERT, "ON CONFLICT
/// Clause"), its row changes only for a newer revision — or to bring back a row deleted at the same or an older
/// revision —, and a deletion marks the row deleted only up to the revision it names, so that a revision sent beside
/// its own old version's deletion stays.
///
/// A row is another gateway's when that gateway forwarded the same reading first — the same sync identifier, from the
/// same cuff's memory: a cuff that moved between gateways, or that two gateways both read. The reading is central
/// already, so the page leaves that row as it is, and so does the deletion; the page counts such readings rather than
/// fail (docs/forwarding.md, "A cuff on two gateways"). Hence no `ON CONFLICT … DO UPDATE`: PostgreSQL checks the
/// row it meets against the UPDATE policy before the clause's own condition (CREATE POLICY, "Policies Applied by
/// Command Type"; enforced in that order since late 2026's minor releases, 15.20 in Debian 12) and refuses the
/// statement when the row is another gateway's. Readings are inserted with
/// `ON CONFLICT DO NOTHING` instead, which checks no policy on the row it meets, and revisions are an UPDATE, which
/// row security confines to the gateway's own rows.
///
/// A page is few statements, not one per reading: each column travels as one array parameter
/// (``PostgresArray``; numbers in binary form) and `unnest` turns the arrays back into rows (§9.19, "Array Functions"), so a page of
/// 10 000 readings costs a few round trips to the server instead of 10 000. The page's few devices travel once, as
/// arrays of their own that each reading points into (`WITH ORDINALITY`, §7.2.1.4), and the unit — the same for
/// every reading cuffd sends — as one parameter: less for cuff-forward to write and for the server to parse.
struct CentralWriter {
    let gateway: String

    /// The central columns a reading fills, in the order of ``pageRows``.
    static let columns = [
        "sync_identifier", "sync_version", "gateway", "systolic", "diastolic", "mean_arterial_pressure", "pulse_rate", "unit",
        "measured_at", "device_time", "user_id", "person", "status", "device_address", "device_name", "device_manufacturer",
        "device_model", "device_serial", "device_firmware", "entered_by_hand", "exclusion_reason", "arm", "position", "note",
    ]

    /// The page's readings as rows of ``columns``, from the parameters ``columns(_:identifiers:)`` makes ($1 the gateway).
    static let pageRows = """
        SELECT page.id, page.version, $1, page.systolic, page.diastolic, page.mean, page.pulse, $2, to_timestamp(page.time),
            page.device_time, page.user_id, page.person, page.status, d.address, d.name, d.manufacturer, d.model, d.serial, d.firmware,
            page.entered_by_hand, page.exclusion_reason, page.arm, page.position, page.note
        FROM unnest($3::text[], $4::bigint[], $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::float8[],
            $10::text[], $11::smallint[], $12::text[], $13::integer[], $14::integer[],
            $21::boolean[], $22::text[], $23::text[], $24::text[], $25::text[])
            AS page (id, version, systolic, diastolic, mean, pulse, time, device_time, user_id, person, status, device,
                entered_by_hand, exclusion_reason, arm, position, note)
        JOIN unnest($15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[]) WITH ORDINALITY
            AS d (address, name, manufacturer, model, serial, firmware, n) ON d.n = page.device
        """

    /// The readings not central yet; one that is — the gateway's own, or another's — is left to ``revise``.
    static let insert = insert(into: "readings", columns, pageRows)

    /// The gateway's own rows the page has a newer revision of, or brings back at their revision after a deletion.
    static let revise = revise("readings", columns, pageRows)

    /// The INSERT of a page's `rows` (a SELECT of `columns`, the sync identifier first) into `table`, skipping each
    /// whose sync identifier is central already.
    static func insert(into table: String, _ columns: [String], _ rows: String) -> String {
        """
        INSERT INTO \(table) (\(columns.joined(separator: ", ")))
        \(rows)
        ON CONFLICT (sync_identifier) DO NOTHING
        """
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

    /// Of the page's sync identifiers, how many this gateway cannot see: each is a row of another gateway's, since
    /// ``insert`` inserted every one that was not there.
    static let othersRows = """
        SELECT count(*) FROM unnest($1::text[]) AS page (id) WHERE NOT EXISTS (SELECT FROM readings WHERE sync_identifier = page.id)
        """

    /// Marks `table`'s rows of the page's deletions deleted, each only at the revision it names or an older one.
    static func delete(_ deleted: [(syncIdentifier: String, syncVersion: Int64)], from table: String, in database: PostgresConnection) throws(PostgresError) {
        guard !deleted.isEmpty else { return }
        try database.execute("""
            UPDATE \(table) SET deleted_at = now()
            FROM unnest($1::text[], $2::bigint[]) AS gone (id, version)
            WHERE sync_identifier = gone.id AND sync_version <= gone.version AND deleted_at IS NULL
            """, [PostgresArray.literal(deleted.map(\.syncIdentifier)), PostgresArray.literal(deleted.map { String($0.syncVersion) })])
    }

    /// Of rows sharing a sync identifier within a page, the newest revision: an UPDATE … FROM joined to two rows
    /// applies either one (UPDATE, "Notes").
    static func newest<Row>(_ rows: [Row], identifier: KeyPath<Row, String>, version: KeyPath<Row, Int64>) -> [Row] {
        var newest: [String: Row] = [:]
        for row in rows where row[keyPath: version] >= newest[row[keyPath: identifier]]?[keyPath: version] ?? .min {
            newest[row[keyPath: identifier]] = row
        }
        return Array(newest.values)
    }

    /// The page's distinct devices, each row's device as its number among them from 1 (`WITH ORDINALITY`), and the
    /// devices' columns as text arrays in the order of ``ReadingRecord/deviceFields``.
    static func devices(_ rows: [[String: String]]) -> (column: PostgresParameter, fields: [PostgresParameter]) {
        let (devices, column) = ReadingColumns.deviceTable(rows)
        let fields = ReadingRecord.deviceFields.map { field in PostgresParameter.text(PostgresArray.literal(devices.map { $0[field] })) }
        return (.binary(PostgresArray.binary(column.map { Int32($0 + 1) })), fields)
    }

    /// Applies `page` and returns once the server has committed it: how many of its readings were another gateway's
    /// rows already, and left as they were.
    func apply(_ page: ChangePage, to database: PostgresConnection) throws(PostgresError) -> Int {
        // Of a reading revised twice within the page, the newest: UPDATE … FROM would apply either (UPDATE, "Notes").
        let readings = Self.newest(page.readings, identifier: \.syncIdentifier, version: \.syncVersion)
        return try database.transaction { () throws(PostgresError) -> Int in
            var othersReadings = 0
            if !readings.isEmpty {
                let identifiers = PostgresParameter.text(PostgresArray.literal(readings.map(\.syncIdentifier)))
                let parameters = [.text(gateway)] + columns(readings, identifiers: identifiers)
                let inserted = try database.executeCountingRows(Self.insert, parameters: parameters)
                // Fewer rows inserted than sent (a backlog's pages never are): revisions, readings sent again after a
                // crash, or another gateway's; only the last are counted.
                if inserted < readings.count {
                    try database.execute(Self.revise, parameters: parameters)
                    let count = try database.execute(Self.othersRows, parameters: [identifiers]).first?.first ?? nil
                    othersReadings = count.flatMap { Int($0) } ?? 0
                }
            }
            try Self.delete(page.deleted, from: "readings", in: database)
            return othersReadings
        }
    }

    /// The parameters after the gateway's: the unit, the sync identifiers (`identifiers`), the readings' other columns, each one array, in the order of
    /// ``pageRows``' first `unnest` — a reading's device as its number among the page's devices, from 1 —, then the
    /// devices' columns, in the order of the second, then the readings' corrections ($21–$25, last in the first). Numbers go in binary form (``PostgresArray/binary(_:)``), so the
    /// server reads them without parsing text; text as array literals.
    private func columns(_ readings: [ReadingRecord], identifiers: PostgresParameter) -> [PostgresParameter] {
        let devices = Self.devices(readings.map(\.device))
        func text(_ column: (ReadingRecord) -> String?) -> PostgresParameter { .text(PostgresArray.literal(readings.map(column))) }
        func binary<Number: PostgresBinaryNumber>(_ column: (ReadingRecord) -> Number?) -> PostgresParameter {
            .binary(PostgresArray.binary(readings.map(column)))
        }
        return [
            .text(ReadingRecord.unit), identifiers, binary(\.syncVersion), binary(\.systolic), binary(\.diastolic),
            binary(\.meanArterialPressure), binary(\.pulseRate), binary(\.time), text(\.deviceTime),
            binary { $0.userID.map(Int16.init) }, text(\.person), binary { $0.status.map(Int32.init) },
            devices.column,
        ] + devices.fields + [
            text { $0.enteredByHand ? "t" : "f" }, text(\.exclusionReason), text(\.arm), text(\.position), text(\.note),
        ]
    }
}
