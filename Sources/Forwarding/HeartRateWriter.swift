import ReadingColumns

/// Writes one page of cuffd's heart-rate change feed into the central `heart_rates` table, in one transaction
/// (docs/forwarding.md, "Heart rate"), by the rules ``CentralWriter`` follows for readings: a sync identifier is
/// inserted once (`ON CONFLICT DO NOTHING` when one is central, which checks no policy on a row it meets), a row
/// changes only for a newer revision or to come back after a deletion at its revision, and a deletion applies to the
/// revision it names or an older one. The samples are copied into ``pageTable`` in COPY's binary form and moved from
/// there (``CentralPage``), a sample's RR intervals as one `integer[]` field — so a day of a 1 Hz strap is a few
/// statements, not 86 400.
///
/// A sample's sync identifier holds the microsecond cuffd received it at (docs/gateway.md, "Heart rate"), so two
/// gateways never send the same one: no count of another gateway's rows, as readings have.
struct HeartRateWriter {
    let gateway: String

    /// The central columns a sample fills, in the order of ``pageRows``.
    static let columns = [
        "sync_identifier", "sync_version", "gateway", "measured_at", "bpm", "sensor_contact", "energy_expended", "rr_intervals",
        "person", "device_address", "device_name", "device_manufacturer", "device_model", "device_serial", "device_firmware",
    ]

    /// The session's copy of the page being written, as ``CentralWriter/pageTable`` is for readings.
    static let pageTable = """
        CREATE TEMPORARY TABLE heart_rate_page (
            sync_identifier text, sync_version bigint, time float8, bpm float8, contact text, energy integer, rr integer[],
            person text, device integer
        ) ON COMMIT DELETE ROWS
        """

    /// The page's samples into ``pageTable``, one row each with the fields in its column order.
    static let copyPage = "COPY pg_temp.heart_rate_page FROM STDIN (FORMAT binary)"

    /// The page's samples as rows of ``columns``: ``pageTable`` joined to its devices ($2…$7), $1 the gateway.
    static let pageRows = """
        SELECT p.sync_identifier, p.sync_version, $1, to_timestamp(p.time), p.bpm, p.contact, p.energy, p.rr,
            p.person, d.address, d.name, d.manufacturer, d.model, d.serial, d.firmware
        FROM pg_temp.heart_rate_page AS p
        JOIN unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY
            AS d (address, name, manufacturer, model, serial, firmware, n) ON d.n = p.device
        """

    static let insert = CentralPage.insert(into: "heart_rates", columns, pageRows)
    static let revise = CentralPage.revise("heart_rates", columns, pageRows)

    /// Applies `page` (of ``FeedKind/heartRates``) and returns once the server has committed it.
    func apply(_ page: ChangePage, to database: PostgresConnection) throws(PostgresError) {
        let samples = CentralPage.newest(page.heartRates, identifier: \.syncIdentifier, version: \.syncVersion)
        try database.transaction { () throws(PostgresError) in
            if !samples.isEmpty {
                let devices = try CentralPage.copy(samples, device: \.device, Self.copyPage, into: database) { rows, sample, device in
                    rows.row(fields: 9)
                    rows.text(sample.syncIdentifier)
                    rows.number(sample.syncVersion)
                    rows.number(sample.time)
                    rows.number(sample.beatsPerMinute)
                    rows.text(sample.sensorContact)
                    rows.number(sample.energyExpended.map(Int32.init))
                    rows.field(sample.rrIntervals.isEmpty ? nil : PostgresArray.binary(sample.rrIntervals.map { Int32($0) }))
                    rows.text(sample.person)
                    rows.number(device)
                }
                let parameters = [.text(gateway)] + devices
                // Fewer rows inserted than sent: samples sent again after a crash, or brought back after a deletion.
                if try CentralPage.insertNew(Self.insert, parameters, into: database) < samples.count {
                    try database.execute(Self.revise, parameters: parameters)
                }
            }
            try CentralPage.delete(page.deleted, from: "heart_rates", in: database)
        }
    }
}
