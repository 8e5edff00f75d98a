/// Writes one page of the change feed into the central `readings` table, in one transaction, so that the
/// page is in PostgreSQL whole or not at all (docs/forwarding.md, "The anchor rule").
///
/// Re-sending is harmless: a reading is an upsert on its sync identifier (PostgreSQL 15 documentation,
/// INSERT, "ON CONFLICT Clause") that changes the row only for a newer revision — or to bring back a row
/// deleted at the same or an older revision —, and a deletion marks the row deleted only up to the revision
/// it names, so that a revision sent beside its own old version's deletion stays.
struct CentralWriter {
    let gateway: String

    static let upsert = """
        INSERT INTO readings AS r (sync_identifier, sync_version, gateway, systolic, diastolic, mean_arterial_pressure,
            pulse_rate, unit, measured_at, device_time, user_id, person, status, device_address, device_name,
            device_manufacturer, device_model, device_serial)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, to_timestamp($9::double precision), $10, $11, $12, $13, $14, $15, $16, $17, $18)
        ON CONFLICT (sync_identifier) DO UPDATE SET sync_version = excluded.sync_version, gateway = excluded.gateway,
            systolic = excluded.systolic, diastolic = excluded.diastolic, mean_arterial_pressure = excluded.mean_arterial_pressure,
            pulse_rate = excluded.pulse_rate, unit = excluded.unit, measured_at = excluded.measured_at,
            device_time = excluded.device_time, user_id = excluded.user_id, person = excluded.person, status = excluded.status,
            device_address = excluded.device_address, device_name = excluded.device_name,
            device_manufacturer = excluded.device_manufacturer, device_model = excluded.device_model,
            device_serial = excluded.device_serial, deleted_at = NULL, received_at = now()
        WHERE excluded.sync_version > r.sync_version OR (r.deleted_at IS NOT NULL AND excluded.sync_version >= r.sync_version)
        """

    static let delete = """
        UPDATE readings SET deleted_at = now()
        WHERE sync_identifier = $1 AND sync_version <= $2::bigint AND deleted_at IS NULL
        """

    /// Applies `page` and returns once the server has committed it.
    func apply(_ page: ChangePage, to database: PostgresConnection) throws(PostgresError) {
        try database.transaction { () throws(PostgresError) in
            for reading in page.readings { try database.execute(Self.upsert, parameters(reading)) }
            for deletion in page.deleted { try database.execute(Self.delete, [deletion.syncIdentifier, String(deletion.syncVersion)]) }
        }
    }

    private func parameters(_ reading: ForwardedReading) -> [String?] {
        [
            reading.syncIdentifier, String(reading.syncVersion), gateway, String(reading.systolic), String(reading.diastolic),
            reading.meanArterialPressure.map { String($0) }, reading.pulseRate.map { String($0) }, reading.unit,
            String(reading.time), reading.deviceTime, reading.userID.map { String($0) }, reading.person,
            reading.status.map { String($0) }, reading.device["address"], reading.device["name"], reading.device["manufacturer"],
            reading.device["model"], reading.device["serial"],
        ]
    }
}
