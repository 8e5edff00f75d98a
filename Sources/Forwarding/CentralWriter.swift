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
/// A page is few statements, not one per reading: its readings are copied into a table of the session's own (``pageTable``)
/// in COPY's binary form (``BinaryCopyRows``) — nothing for the server to parse, no statement per row —, and one
/// `INSERT … SELECT` moves them into `readings`, where the policy's `WITH CHECK` and the primary key apply to each as
/// to any INSERT. The page's few devices travel once, as array parameters that each reading points into (`WITH
/// ORDINALITY`, §7.2.1.4), and the unit — the same for every reading cuffd sends — as one parameter.
struct CentralWriter {
    let gateway: String

    /// The central columns a reading fills, in the order of ``pageRows``.
    static let columns = [
        "sync_identifier", "sync_version", "gateway", "systolic", "diastolic", "mean_arterial_pressure", "pulse_rate", "unit",
        "measured_at", "device_time", "user_id", "person", "status", "device_address", "device_name", "device_manufacturer",
        "device_model", "device_serial", "device_firmware",
    ]

    /// The session's copy of the page being written: temporary, so neither logged nor seen by another session, and
    /// emptied at each commit (CREATE TABLE, `TEMPORARY` and `ON COMMIT DELETE ROWS`). Made once per session
    /// (``prepare(_:)``); row security does not apply to it, only to `readings`.
    static let pageTable = """
        CREATE TEMPORARY TABLE page (
            sync_identifier text, sync_version bigint, systolic float8, diastolic float8, mean float8, pulse float8,
            time float8, device_time text, user_id smallint, person text, status integer, device integer
        ) ON COMMIT DELETE ROWS
        """

    /// The page's readings into ``pageTable``, one row each with the fields in its column order (``copy(_:to:)``).
    static let copyPage = "COPY pg_temp.page FROM STDIN (FORMAT binary)"

    /// The page's readings as rows of ``columns``: ``pageTable`` joined to its devices ($3…$8), $1 the gateway, $2 the unit.
    static let pageRows = """
        SELECT p.sync_identifier, p.sync_version, $1, p.systolic, p.diastolic, p.mean, p.pulse, $2, to_timestamp(p.time),
            p.device_time, p.user_id, p.person, p.status, d.address, d.name, d.manufacturer, d.model, d.serial, d.firmware
        FROM pg_temp.page AS p
        JOIN unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) WITH ORDINALITY
            AS d (address, name, manufacturer, model, serial, firmware, n) ON d.n = p.device
        """

    /// The page's readings, when none of them is central yet.
    static let insert = """
        INSERT INTO readings (\(columns.joined(separator: ", ")))
        \(pageRows)
        """

    /// The readings not central yet; one that is — the gateway's own, or another's — is left to ``revise``.
    static let insertSkippingCentral = insert + "\nON CONFLICT (sync_identifier) DO NOTHING"

    /// The gateway's own rows the page has a newer revision of, or brings back at their revision after a deletion.
    static let revise = """
        UPDATE readings AS r SET (\(columns.dropFirst().joined(separator: ", ")), deleted_at, received_at)
            = (\(columns.dropFirst().map { "n." + $0 }.joined(separator: ", ")), NULL, now())
        FROM (\(pageRows)) AS n (\(columns.joined(separator: ", ")))
        WHERE r.sync_identifier = n.sync_identifier AND r.gateway = n.gateway
            AND (n.sync_version > r.sync_version OR (r.deleted_at IS NOT NULL AND n.sync_version >= r.sync_version))
        """

    /// Of the page's sync identifiers, how many this gateway cannot see: each is a row of another gateway's, since
    /// ``insertSkippingCentral`` inserted every one that was not there.
    static let othersRows = """
        SELECT count(*) FROM pg_temp.page AS p WHERE NOT EXISTS (SELECT FROM readings WHERE sync_identifier = p.sync_identifier)
        """

    static let delete = """
        UPDATE readings SET deleted_at = now()
        FROM unnest($1::text[], $2::bigint[]) AS gone (id, version)
        WHERE sync_identifier = gone.id AND sync_version <= gone.version AND deleted_at IS NULL
        """

    /// How much of a page's COPY is written before it is handed to libpq.
    static let copyPiece = 64 * 1024

    /// Makes the session's ``pageTable``: once per session, before its first page. A role refused temporary tables in
    /// the database is told how to allow it.
    static func prepare(_ database: PostgresConnection) throws {
        do {
            try database.execute(pageTable)
        } catch {
            guard error.sqlState == PostgresError.insufficientPrivilege else { throw error }
            let names = try database.execute("SELECT current_database(), current_user").first ?? []
            throw TemporaryTablesRefused(database: names.first.flatMap { $0 } ?? "", role: names.last.flatMap { $0 } ?? "")
        }
    }

    /// Applies `page` and returns once the server has committed it: how many of its readings were another gateway's
    /// rows already, and left as they were.
    func apply(_ page: ChangePage, to database: PostgresConnection) throws(PostgresError) -> Int {
        let readings = Self.newestRevisions(page.readings)
        return try database.transaction { () throws(PostgresError) -> Int in
            var othersReadings = 0
            if !readings.isEmpty {
                let devices = try copy(readings, to: database)
                let parameters = [.text(gateway), .text(ReadingRecord.unit)] + ReadingRecord.deviceFields.map { field in
                    PostgresParameter.text(PostgresArray.literal(devices.map { $0[field] }))
                }
                let inserted = try insertNew(parameters, into: database)
                // Fewer rows inserted than sent (a backlog's pages never are): revisions, readings sent again after a
                // crash, or another gateway's; only the last are counted.
                if inserted < readings.count {
                    try database.execute(Self.revise, parameters: parameters)
                    let count = try database.execute(Self.othersRows).first?.first ?? nil
                    othersReadings = count.flatMap { Int($0) } ?? 0
                }
            }
            if !page.deleted.isEmpty {
                try database.execute(Self.delete, parameters: [
                    .text(PostgresArray.literal(page.deleted.map(\.syncIdentifier))),
                    .binary(PostgresArray.binary(page.deleted.map { Optional($0.syncVersion) })),
                ])
            }
            return othersReadings
        }
    }

    /// Of a reading revised twice within the page, the newest, in the place of its first: UPDATE … FROM would apply
    /// either (UPDATE, "Notes"). The rest in the page's order.
    static func newestRevisions(_ readings: [ReadingRecord]) -> [ReadingRecord] {
        var kept: [ReadingRecord] = []
        kept.reserveCapacity(readings.count)
        var places: [String: Int] = [:]
        places.reserveCapacity(readings.count)
        for reading in readings {
            if let place = places[reading.syncIdentifier] {
                if reading.syncVersion >= kept[place].syncVersion { kept[place] = reading }
            } else {
                places[reading.syncIdentifier] = kept.count
                kept.append(reading)
            }
        }
        return kept
    }

    /// Copies `readings` into ``pageTable``, each with its device as its number among the page's devices, from 1;
    /// returns those devices.
    private func copy(_ readings: [ReadingRecord], to database: PostgresConnection) throws(PostgresError) -> [[String: String]] {
        var devices: [[String: String]] = []
        var deviceNumbers: [[String: String]: Int32] = [:]
        _ = try database.copy(Self.copyPage) { (copy) throws(PostgresError) in
            var rows = BinaryCopyRows(capacity: Self.copyPiece + 1024)
            for reading in readings {
                let device: Int32
                if let number = deviceNumbers[reading.device] {
                    device = number
                } else {
                    devices.append(reading.device)
                    device = Int32(devices.count)
                    deviceNumbers[reading.device] = device
                }
                rows.row(fields: 12)
                rows.text(reading.syncIdentifier)
                rows.number(reading.syncVersion)
                rows.number(reading.systolic)
                rows.number(reading.diastolic)
                rows.number(reading.meanArterialPressure)
                rows.number(reading.pulseRate)
                rows.number(reading.time)
                rows.text(reading.deviceTime)
                rows.number(reading.userID.map(Int16.init))
                rows.text(reading.person)
                rows.number(reading.status.map(Int32.init))
                rows.number(device)
                if rows.bytes.count >= Self.copyPiece {
                    try copy.send(rows.bytes)
                    rows.removeAll()
                }
            }
            rows.end()
            try copy.send(rows.bytes)
        }
        return devices
    }

    /// Inserts the page's readings not central yet and returns how many. First as a plain INSERT, under a savepoint: a
    /// backlog's pages meet no row already central, and the server inserts a row with a third less work than under
    /// `ON CONFLICT`, which inserts each one speculatively — the key looked up first, the row confirmed after
    /// (PostgreSQL 15 source, `ExecInsert`, "speculative insertion") — (Benchmarks/RESULTS.md, "Forwarding a backlog
    /// to PostgreSQL"). When one of them is central — a page sent again, a revision, another gateway's reading —, the
    /// INSERT fails on the primary key (SQLSTATE 23505), what it wrote is rolled back to the savepoint, and the page
    /// goes in with `ON CONFLICT DO NOTHING`: the rows written are the same either way.
    private func insertNew(_ parameters: [PostgresParameter], into database: PostgresConnection) throws(PostgresError) -> Int {
        try database.execute("SAVEPOINT page")
        do {
            return try database.executeCountingRows(Self.insert, parameters: parameters)
        } catch {
            guard error.sqlState == PostgresError.uniqueViolation else { throw error }
            try database.execute("ROLLBACK TO SAVEPOINT page")
            return try database.executeCountingRows(Self.insertSkippingCentral, parameters: parameters)
        }
    }
}

/// The gateway's role may not create temporary tables in the central database, which each page is copied into first
/// (``CentralWriter/pageTable``): PUBLIC may by default, so an administrator revoked it.
struct TemporaryTablesRefused: Error, CustomStringConvertible {
    let database: String
    let role: String

    var description: String {
        "role \(role) may not create temporary tables in database \(database), and cuff-forward copies each page into one; "
            + "an administrator runs GRANT TEMPORARY ON DATABASE \(database) TO \(role)"
    }
}
