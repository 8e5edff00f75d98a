import ReadingColumns

/// Writes one page of cuffd's heart-rate change feed into the central `heart_rates` table, in one transaction
/// (docs/forwarding.md, "Heart rate"), by the rules ``CentralWriter`` follows for readings: a sync identifier is
/// inserted once (`ON CONFLICT DO NOTHING`, which checks no policy on a row it meets), a row changes only for a newer
/// revision or to come back after a deletion at its revision, and a deletion applies to the revision it names or an
/// older one. Each column is one array parameter turned back into rows by `unnest`, numbers in binary form; a sample's
/// RR intervals travel as one element of a text array, an array literal of their own (`{991,1002}`), cast to
/// `integer[]` by the server — so a day of a 1 Hz strap is a few statements, not 86 400.
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

    /// The page's samples as rows of ``columns``, from the parameters ``parameters(_:)`` makes ($1 the gateway).
    static let pageRows = """
        SELECT page.id, page.version, $1, to_timestamp(page.time), page.bpm, page.contact, page.energy, page.rr::integer[],
            page.person, d.address, d.name, d.manufacturer, d.model, d.serial, d.firmware
        FROM unnest($2::text[], $3::bigint[], $4::float8[], $5::float8[], $6::text[], $7::integer[], $8::text[], $9::text[], $10::integer[])
            AS page (id, version, time, bpm, contact, energy, rr, person, device)
        JOIN unnest($11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[]) WITH ORDINALITY
            AS d (address, name, manufacturer, model, serial, firmware, n) ON d.n = page.device
        """

    static let insert = CentralWriter.insert(into: "heart_rates", columns, pageRows)
    static let revise = CentralWriter.revise("heart_rates", columns, pageRows)

    /// Applies `page` (of ``FeedKind/heartRates``) and returns once the server has committed it.
    func apply(_ page: ChangePage, to database: PostgresConnection) throws(PostgresError) {
        let samples = CentralWriter.newest(page.heartRates, identifier: \.syncIdentifier, version: \.syncVersion)
        try database.transaction { () throws(PostgresError) in
            if !samples.isEmpty {
                let parameters = parameters(samples)
                // Fewer rows inserted than sent: samples sent again after a crash, or brought back after a deletion.
                if try database.executeCountingRows(Self.insert, parameters: parameters) < samples.count {
                    try database.execute(Self.revise, parameters: parameters)
                }
            }
            try CentralWriter.delete(page.deleted, from: "heart_rates", in: database)
        }
    }

    /// The gateway, then each column of the samples as one array in the order of ``pageRows``' first `unnest` — a
    /// sample's device as its number among the page's devices —, then the devices' columns.
    private func parameters(_ samples: [HeartRateRecord]) -> [PostgresParameter] {
        let devices = CentralWriter.devices(samples.map(\.device))
        func text(_ column: (HeartRateRecord) -> String?) -> PostgresParameter { .text(PostgresArray.literal(samples.map(column))) }
        func binary<Number: PostgresBinaryNumber>(_ column: (HeartRateRecord) -> Number?) -> PostgresParameter {
            .binary(PostgresArray.binary(samples.map(column)))
        }
        return [
            .text(gateway), text(\.syncIdentifier), binary(\.syncVersion), binary(\.time), binary(\.beatsPerMinute), text(\.sensorContact),
            binary { $0.energyExpended.map(Int32.init) },
            text { $0.rrIntervals.isEmpty ? nil : "{" + $0.rrIntervals.map(String.init).joined(separator: ",") + "}" },
            text(\.person), devices.column,
        ] + devices.fields
    }
}
