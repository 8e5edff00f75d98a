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
/// `ON CONFLICT DO NOTHING` instead when one is central (``CentralPage/insertNew(_:_:into:)``), which checks no
/// policy on the row it meets, and revisions are an UPDATE, which row security confines to the gateway's own rows.
///
/// A page is few statements, not one per reading: its readings are copied into ``pageTable`` and moved from there
/// (``CentralPage``); the unit — the same for every reading cuffd sends — travels as one parameter.
struct CentralWriter {
    let gateway: String

    /// The central columns a reading fills, in the order of ``pageRows``.
    static let columns = [
        "sync_identifier", "sync_version", "gateway", "systolic", "diastolic", "mean_arterial_pressure", "pulse_rate", "unit",
        "measured_at", "device_time", "user_id", "person", "status", "device_address", "device_name", "device_manufacturer",
        "device_model", "device_serial", "device_firmware", "entered_by_hand", "exclusion_reason", "arm", "position", "note",
    ]

    /// The session's copy of the page being written: temporary, so neither logged nor seen by another session, and
    /// emptied at each commit (CREATE TABLE, `TEMPORARY` and `ON COMMIT DELETE ROWS`). Made once per session
    /// (``CentralPage/prepare(_:)``); row security does not apply to it, only to `readings`.
    static let pageTable = """
        CREATE TEMPORARY TABLE reading_page (
            sync_identifier text, sync_version bigint, systolic float8, diastolic float8, mean float8, pulse float8,
            time float8, device_time text, user_id smallint, person text, status integer, device integer,
            entered_by_hand boolean, exclusion_reason text, arm text, position text, note text
        ) ON COMMIT DELETE ROWS
        """

    /// The page's readings into ``pageTable``, one row each with the fields in its column order (``copy(_:to:)``).
    static let copyPage = "COPY pg_temp.reading_page FROM STDIN (FORMAT binary)"

    /// The page's readings as rows of ``columns``: ``pageTable`` joined to its devices ($3…$8), $1 the gateway, $2 the unit.
    static let pageRows = """
        SELECT p.sync_identifier, p.sync_version, $1, p.systolic, p.diastolic, p.mean, p.pulse, $2, to_timestamp(p.time),
            p.device_time, p.user_id, p.person, p.status, d.address, d.name, d.manufacturer, d.model, d.serial, d.firmware,
            p.entered_by_hand, p.exclusion_reason, p.arm, p.position, p.note
        FROM pg_temp.reading_page AS p
        JOIN unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) WITH ORDINALITY
            AS d (address, name, manufacturer, model, serial, firmware, n) ON d.n = p.device
        """

    /// The readings not central yet; one that is — the gateway's own, or another's — is left to ``revise``.
    static let insert = CentralPage.insert(into: "readings", columns, pageRows)

    /// The gateway's own rows the page has a newer revision of, or brings back at their revision after a deletion.
    static let revise = CentralPage.revise("readings", columns, pageRows)

    /// Of the page's sync identifiers, how many this gateway cannot see: each is a row of another gateway's, since
    /// ``insert`` inserted every one that was not there.
    static let othersRows = """
        SELECT count(*) FROM pg_temp.reading_page AS p WHERE NOT EXISTS (SELECT FROM readings WHERE sync_identifier = p.sync_identifier)
        """

    /// Applies `page` and returns once the server has committed it: how many of its readings were another gateway's
    /// rows already, and left as they were.
    func apply(_ page: ChangePage, to database: PostgresConnection) throws(PostgresError) -> Int {
        let readings = CentralPage.newest(page.readings, identifier: \.syncIdentifier, version: \.syncVersion)
        return try database.transaction { () throws(PostgresError) -> Int in
            var othersReadings = 0
            if !readings.isEmpty {
                let devices = try Self.copy(readings, to: database)
                let parameters = [.text(gateway), .text(ReadingRecord.unit)] + devices
                let inserted = try CentralPage.insertNew(Self.insert, parameters, into: database)
                // Fewer rows inserted than sent (a backlog's pages never are): revisions, readings sent again after a
                // crash, or another gateway's; only the last are counted.
                if inserted < readings.count {
                    try database.execute(Self.revise, parameters: parameters)
                    let count = try database.execute(Self.othersRows).first?.first ?? nil
                    othersReadings = count.flatMap { Int($0) } ?? 0
                }
            }
            try CentralPage.delete(page.deleted, from: "readings", in: database)
            return othersReadings
        }
    }

    /// Copies `readings` into ``pageTable``; returns their devices' columns (``CentralPage/copy(_:device:_:into:_:)``).
    private static func copy(_ readings: [ReadingRecord], to database: PostgresConnection) throws(PostgresError) -> [PostgresParameter] {
        try CentralPage.copy(readings, device: \.device, copyPage, into: database) { rows, reading, device in
            rows.row(fields: 17)
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
            rows.boolean(reading.enteredByHand)
            rows.text(reading.exclusionReason)
            rows.text(reading.arm)
            rows.text(reading.position)
            rows.text(reading.note)
        }
    }
}
