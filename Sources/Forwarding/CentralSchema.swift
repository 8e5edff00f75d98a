/// The central tables, as numbered migrations (docs/forwarding.md, "Schema"). `--migrate` applies the ones a
/// server lacks in one transaction, under an advisory lock so that two gateways migrating at once take turns
/// (PostgreSQL 15 documentation §13.3.5 "Advisory Locks", `pg_advisory_xact_lock`); DDL is transactional in
/// PostgreSQL, so a failed migration leaves nothing behind.
enum CentralSchema {
    /// The newest version this cuff-forward knows.
    static var version: Int { migrations.count }

    /// Migration n brings the schema from version n − 1 to n. Never edit one that has shipped; add the next.
    static let migrations = [
        """
        CREATE TABLE readings (
            sync_identifier text PRIMARY KEY,
            sync_version bigint NOT NULL,
            gateway text NOT NULL,
            systolic double precision NOT NULL,
            diastolic double precision NOT NULL,
            mean_arterial_pressure double precision,
            pulse_rate double precision,
            unit text NOT NULL,
            measured_at timestamptz NOT NULL,
            device_time text,
            user_id smallint,
            person text,
            status integer,
            device_address text,
            device_name text,
            device_manufacturer text,
            device_model text,
            device_serial text,
            deleted_at timestamptz,
            received_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX readings_by_person ON readings (person, measured_at) WHERE deleted_at IS NULL;
        CREATE INDEX readings_by_time ON readings (measured_at) WHERE deleted_at IS NULL;
        """,
        // Each gateway writes only its own rows (§5.8 "Row Security Policies"): a gateway name belongs to one role,
        // and the policy lets a role see, insert and update only rows of its names — forced on the table's owner
        // too, which is the role that migrated, often a gateway's own. A row of another gateway is invisible to
        // UPDATE, and an INSERT of one, or an upsert onto one, is refused (SQLSTATE 42501).
        """
        CREATE TABLE gateways (
            name text PRIMARY KEY,
            role name NOT NULL,
            registered_at timestamptz NOT NULL DEFAULT now()
        );
        ALTER TABLE readings ENABLE ROW LEVEL SECURITY;
        ALTER TABLE readings FORCE ROW LEVEL SECURITY;
        CREATE POLICY readings_of_own_gateway ON readings
            USING (gateway IN (SELECT name FROM gateways WHERE role = current_user))
            WITH CHECK (gateway IN (SELECT name FROM gateways WHERE role = current_user));
        """,
        // The cuff's Firmware Revision String (0x2A26), which cuffd's feed carries beside the other device fields.
        """
        ALTER TABLE readings ADD COLUMN device_firmware text;
        """,
        // A reading's corrections (docs/dbus-api.md, "Correcting readings"): entered by hand, excluded on request and
        // why, the arm and position, a note. Rows kept; an existing reading counts as one a cuff sent.
        """
        ALTER TABLE readings
            ADD COLUMN entered_by_hand boolean NOT NULL DEFAULT false,
            ADD COLUMN exclusion_reason text,
            ADD COLUMN arm text,
            ADD COLUMN position text,
            ADD COLUMN note text;
        """,
        // Heart-rate sensors' samples (0x2A37), from cuffd's heart-rate change feed: a table of their own, with the
        // readings' sync identifiers, tombstones, device columns and row security. Nothing of `readings` changes.
        """
        CREATE TABLE heart_rates (
            sync_identifier text PRIMARY KEY,
            sync_version bigint NOT NULL,
            gateway text NOT NULL,
            measured_at timestamptz NOT NULL,
            bpm double precision NOT NULL,
            sensor_contact text NOT NULL,
            energy_expended integer,
            rr_intervals integer[],
            person text,
            device_address text,
            device_name text,
            device_manufacturer text,
            device_model text,
            device_serial text,
            device_firmware text,
            deleted_at timestamptz,
            received_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX heart_rates_by_person ON heart_rates (person, measured_at) WHERE deleted_at IS NULL;
        CREATE INDEX heart_rates_by_device ON heart_rates (device_address, measured_at) WHERE deleted_at IS NULL;
        ALTER TABLE heart_rates ENABLE ROW LEVEL SECURITY;
        ALTER TABLE heart_rates FORCE ROW LEVEL SECURITY;
        CREATE POLICY heart_rates_of_own_gateway ON heart_rates
            USING (gateway IN (SELECT name FROM gateways WHERE role = current_user))
            WITH CHECK (gateway IN (SELECT name FROM gateways WHERE role = current_user));
        """,
    ]

    /// `hashtext('cuff-forward schema')` would do as well; a fixed number is easier to find in `pg_locks`.
    private static let lockKey = "7305417021"

    /// Brings the server's schema to ``version``; returns the version it had. Refuses a newer one.
    @discardableResult
    static func migrate(_ database: PostgresConnection) throws -> Int {
        try database.transaction { () throws(PostgresError) -> Result<Int, SchemaMismatch> in
            try database.execute("SELECT pg_advisory_xact_lock($1::bigint)", [lockKey])
            try database.execute("CREATE TABLE IF NOT EXISTS cuff_forward_schema (version integer NOT NULL)")
            let current = try installedVersion(database)
            guard current <= version else { return .failure(.newer(current)) }
            for (index, sql) in migrations.enumerated() where index + 1 > current {
                try database.execute(sql)
                try database.execute("INSERT INTO cuff_forward_schema (version) VALUES ($1)", [String(index + 1)])
            }
            return .success(current)
        }.get()
    }

    /// Refuses to write to a server whose schema is not exactly ``version``, before anything is written.
    static func check(_ database: PostgresConnection) throws {
        let current: Int
        do {
            current = try installedVersion(database)
        } catch let error where error.sqlState == PostgresError.undefinedTable {
            throw SchemaMismatch.missing
        }
        if current > version { throw SchemaMismatch.newer(current) }
        if current < version { throw SchemaMismatch.older(current) }
    }

    private static func installedVersion(_ database: PostgresConnection) throws(PostgresError) -> Int {
        let rows = try database.execute("SELECT max(version) FROM cuff_forward_schema")
        guard let cell = rows.first?.first, let text = cell else { return 0 }
        return Int(text) ?? 0
    }
}

/// The central schema is not the one this cuff-forward writes.
enum SchemaMismatch: Error, CustomStringConvertible {
    case missing
    case older(Int)
    case newer(Int)

    var description: String {
        switch self {
        case .missing: "the central database has no cuff-forward schema; run cuff-forward --migrate"
        case .older(let found): "the central schema is version \(found), this cuff-forward writes \(CentralSchema.version); run cuff-forward --migrate"
        case .newer(let found):
            "the central schema is version \(found), newer than the \(CentralSchema.version) this cuff-forward knows; update cuff-forward (nothing was written)"
        }
    }
}
