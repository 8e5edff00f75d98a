import GRDB

/// Versioned schema of the SQLite engine (GRDB `DatabaseMigrator`; each migration runs once, in a
/// transaction, recorded in `grdb_migrations`). Never edit a shipped migration: append a new one.
///
/// Rules carried by the schema (docs/reference/HEALTH-STORE.md §3–4): `STRICT` tables; `CHECK (start_at <= end_at)`;
/// sync identifier and version both or neither; unique (source, sync identifier); one change
/// counter in `store_state` shared by samples and tombstones. Times are integer microseconds since
/// 1970 UTC; UUIDs are 16-byte blobs.
enum SQLiteSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE store_state (
                    id INTEGER PRIMARY KEY CHECK (id = 1),
                    change_seq INTEGER NOT NULL,
                    purged_through_seq INTEGER NOT NULL
                ) STRICT;
                INSERT INTO store_state (id, change_seq, purged_through_seq) VALUES (1, 0, 0);

                CREATE TABLE sample_type (
                    id INTEGER PRIMARY KEY,
                    identifier TEXT NOT NULL UNIQUE
                ) STRICT;

                CREATE TABLE source (
                    id INTEGER PRIMARY KEY,
                    bundle_identifier TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL
                ) STRICT;

                CREATE TABLE source_revision (
                    id INTEGER PRIMARY KEY,
                    source_id INTEGER NOT NULL REFERENCES source(id),
                    version TEXT,
                    os_version TEXT,
                    product_type TEXT,
                    fingerprint TEXT NOT NULL UNIQUE
                ) STRICT;

                CREATE TABLE device (
                    id INTEGER PRIMARY KEY,
                    identity TEXT NOT NULL,
                    payload TEXT NOT NULL UNIQUE
                ) STRICT;
                CREATE INDEX device_identity ON device(identity);

                CREATE TABLE sample (
                    id INTEGER PRIMARY KEY,
                    uuid BLOB NOT NULL UNIQUE,
                    type_id INTEGER NOT NULL REFERENCES sample_type(id),
                    is_correlation INTEGER NOT NULL,
                    value REAL,
                    start_at INTEGER NOT NULL,
                    end_at INTEGER NOT NULL,
                    time_zone TEXT,
                    source_id INTEGER NOT NULL REFERENCES source(id),
                    revision_id INTEGER NOT NULL REFERENCES source_revision(id),
                    device_id INTEGER REFERENCES device(id),
                    metadata TEXT,
                    sync_identifier TEXT,
                    sync_version INTEGER,
                    correlation_id INTEGER REFERENCES sample(id),
                    is_member INTEGER NOT NULL,
                    created_at INTEGER NOT NULL,
                    change_seq INTEGER NOT NULL UNIQUE,
                    CHECK (start_at <= end_at),
                    CHECK ((sync_identifier IS NULL) = (sync_version IS NULL)),
                    CHECK ((value IS NULL) = (is_correlation = 1))
                ) STRICT;
                CREATE UNIQUE INDEX sample_sync_key ON sample(source_id, sync_identifier)
                    WHERE sync_identifier IS NOT NULL;
                CREATE INDEX sample_type_start ON sample(type_id, start_at);
                CREATE INDEX sample_correlation ON sample(correlation_id) WHERE correlation_id IS NOT NULL;

                CREATE TABLE tombstone (
                    id INTEGER PRIMARY KEY,
                    uuid BLOB NOT NULL UNIQUE,
                    type_id INTEGER NOT NULL REFERENCES sample_type(id),
                    source_id INTEGER NOT NULL REFERENCES source(id),
                    sync_identifier TEXT,
                    sync_version INTEGER,
                    deleted_at INTEGER NOT NULL,
                    change_seq INTEGER NOT NULL UNIQUE
                ) STRICT;
                CREATE INDEX tombstone_deleted_at ON tombstone(deleted_at);

                CREATE TABLE authorization_grant (
                    uid INTEGER NOT NULL,
                    type_id INTEGER NOT NULL REFERENCES sample_type(id),
                    can_share INTEGER NOT NULL,
                    can_read INTEGER NOT NULL,
                    PRIMARY KEY (uid, type_id)
                ) STRICT;
                """)
        }
        migrator.registerMigration("v2-rollup") { db in
            try db.execute(sql: rollupV2)
        }
        // A random identifier of this store file, made once: what is kept beside a store (cuffd's cuff registry)
        // names it, so that a store restored from a backup is not paired with another store's companions.
        migrator.registerMigration("v3-store-identifier") { db in
            try db.execute(sql: """
                ALTER TABLE store_state ADD COLUMN identifier BLOB CHECK (identifier IS NULL OR length(identifier) = 16);
                UPDATE store_state SET identifier = randomblob(16) WHERE id = 1;
                """)
        }
        // cuffd's application ID in the file header (SQLiteStoreFile): a new store gets it here, and so does one
        // written before stores carried it.
        migrator.registerMigration("v4-application-id") { db in
            try db.execute(sql: "PRAGMA application_id = \(SQLiteStoreFile.applicationID)")
        }
        // The release of the program that last opened the store to write (``StoreConfiguration/sourceVersion``):
        // an older release refusing a newer store names it (SQLiteStoreFile).
        migrator.registerMigration("v5-writer-release") { db in
            try db.execute(sql: "ALTER TABLE store_state ADD COLUMN writer_release TEXT")
        }
        migrator.registerMigration("v6-rollup-parts") { db in
            try db.execute(sql: rollupV6)
        }
        migrator.registerMigration("v7-grant-people") { db in
            try db.execute(sql: grantPeopleV7)
        }
        // The sync identifiers of correlations deleted on request, kept for good (tombstones are purged after the
        // retention window): a cuff sending a deleted reading again from its memory stores nothing
        // (docs/health-store.md, "Deleting on request").
        migrator.registerMigration("v8-deleted-sync-keys") { db in
            try db.execute(sql: """
                CREATE TABLE deleted_sync_key (
                    source_id INTEGER NOT NULL REFERENCES source(id),
                    sync_identifier TEXT NOT NULL,
                    deleted_at INTEGER NOT NULL,
                    PRIMARY KEY (source_id, sync_identifier)
                ) STRICT, WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v9-rollup-exclusion") { db in
            try db.execute(sql: rollupV9)
        }
        // Who entered, annotated or deleted a correlation on request, when, and which keys changed (``EditRecord``),
        // kept for good beside the person and source of the correlation so that only its readers read it
        // (docs/health-store.md, "Edit history").
        migrator.registerMigration("v10-edit-history") { db in
            try db.execute(sql: """
                CREATE TABLE edit_history (
                    id INTEGER PRIMARY KEY,
                    type_id INTEGER NOT NULL REFERENCES sample_type(id),
                    source_id INTEGER NOT NULL REFERENCES source(id),
                    sync_identifier TEXT NOT NULL,
                    person TEXT,
                    uid INTEGER NOT NULL,
                    action TEXT NOT NULL CHECK (action IN ('entered', 'annotated', 'deleted')),
                    changed_keys TEXT NOT NULL,
                    at INTEGER NOT NULL
                ) STRICT;
                CREATE INDEX edit_history_sync_identifier ON edit_history(sync_identifier, id);
                """)
        }
        migrator.registerMigration("v11-rollup-update-when-changed") { db in
            try db.execute(sql: rollupV11)
        }
        migrator.registerMigration("v12-rollup-marks") { db in
            try db.execute(sql: rollupV12)
        }
        migrator.registerMigration("v13-heart-rate-series") { db in
            try db.execute(sql: seriesV13)
        }
        return migrator
    }

    /// Slot length of `sample_rollup`: 15 minutes in microseconds. Every UTC offset in use is a
    /// multiple of 15 minutes, so local day, week and month boundaries fall on slot boundaries.
    static let rollupSlotMicros: Int64 = 900_000_000

    /// Slots of a UTC day in `sample_rollup_day` (migration v6).
    static let rollupSlotsPerDay: Int64 = 96

    /// Adds a batch of inserted samples to one slot (the same merge the slot recomputation gives).
    static let rollupUpsert = """
        INSERT INTO sample_rollup (type_id, part, slot, source_id, n, total, lo, hi, last_at, last_value)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (type_id, part, slot, source_id) DO UPDATE SET \(merge(n: "excluded.n", total: "excluded.total", "excluded"))
        """

    /// The `SET` list adding samples to a rollup row: `n` and `total` more of them, those of `added` (a row) for the
    /// rest; a latest sample as late as the row's, added later, becomes its latest.
    private static func merge(n: String, total: String, _ added: String) -> String {
        """
        n = n + \(n), total = total + \(total), lo = min(lo, \(added).lo), hi = max(hi, \(added).hi),
        last_value = CASE WHEN \(added).last_at >= last_at THEN \(added).last_value ELSE last_value END,
        last_at = max(last_at, \(added).last_at)
        """
    }

    /// `floor(x / slot)` in SQL (SQLite's integer division truncates toward zero).
    static func slot(_ x: String) -> String {
        "(CASE WHEN \(x) >= 0 THEN \(x) / 900000000 ELSE -((-\(x) - 1) / 900000000) - 1 END)"
    }

    /// Recomputes the rollup row of one (type, source, slot) from `sample`.
    private static func recompute(_ row: String) -> String {
        let lo = "(\(slot("\(row).start_at")) * 900000000)"
        let hi = "(\(lo) + 900000000)"
        return """
            DELETE FROM sample_rollup WHERE type_id = \(row).type_id AND source_id = \(row).source_id AND slot = \(slot("\(row).start_at"));
            INSERT INTO sample_rollup (type_id, slot, source_id, n, total, lo, hi, last_at, last_value)
            SELECT type_id, \(slot("\(row).start_at")), source_id, count(*), sum(value), min(value), max(value), max(start_at),
                (SELECT s2.value FROM sample s2 WHERE s2.type_id = \(row).type_id AND s2.source_id = \(row).source_id
                   AND s2.start_at >= \(lo) AND s2.start_at < \(hi) ORDER BY s2.start_at DESC, s2.id DESC LIMIT 1)
            FROM sample WHERE type_id = \(row).type_id AND source_id = \(row).source_id AND start_at >= \(lo) AND start_at < \(hi)
            GROUP BY type_id, source_id;
            """
    }

    /// v2: per (type, source, 15-minute slot) count, sum, min, max and latest value of quantity
    /// samples, kept exact inside the writing transaction, so statistics over all samples of a type
    /// (optionally per source) read ~35 000 rollup rows per year instead of every sample. Inserts
    /// are summed per slot by ``SQLiteWriteContext`` and upserted with ``rollupUpsert`` before any
    /// update or delete and at commit (one statement per touched slot rather than one trigger run
    /// per row: ~20 % of ingest time); updates and deletes recompute their slot in triggers.
    static var rollupV2: String {
        """
        CREATE TABLE sample_rollup (
            type_id INTEGER NOT NULL,
            slot INTEGER NOT NULL,
            source_id INTEGER NOT NULL,
            n INTEGER NOT NULL,
            total REAL NOT NULL,
            lo REAL NOT NULL,
            hi REAL NOT NULL,
            last_at INTEGER NOT NULL,
            last_value REAL NOT NULL,
            PRIMARY KEY (type_id, slot, source_id)
        ) STRICT, WITHOUT ROWID;

        CREATE TRIGGER sample_rollup_delete AFTER DELETE ON sample WHEN OLD.value IS NOT NULL BEGIN
            \(recompute("OLD"))
        END;

        CREATE TRIGGER sample_rollup_update AFTER UPDATE OF value, start_at, type_id, source_id ON sample
        WHEN OLD.value IS NOT NULL OR NEW.value IS NOT NULL BEGIN
            \(recompute("OLD"))
            \(recompute("NEW"))
        END;

        INSERT INTO sample_rollup (type_id, slot, source_id, n, total, lo, hi, last_at, last_value)
        SELECT type_id, \(slot("start_at")) AS sl, source_id, count(*), sum(value), min(value), max(value), max(start_at), 0
        FROM sample WHERE value IS NOT NULL GROUP BY type_id, sl, source_id;
        UPDATE sample_rollup SET last_value = (
            SELECT s.value FROM sample s WHERE s.type_id = sample_rollup.type_id AND s.source_id = sample_rollup.source_id
              AND s.start_at = sample_rollup.last_at ORDER BY s.id DESC LIMIT 1);
        """
    }

    // MARK: v7: read grants of named people

    /// The person of a `sample` row (``MetadataKey/personIdentifier``) in SQL, from its metadata column `metadata`
    /// (`s.metadata`; bare in an index, which allows no table name), as migration v7 indexes it.
    static func person(_ metadata: String) -> String {
        SQLiteCoding.extract(MetadataKey.personIdentifier.name, from: metadata)
    }

    /// v7: a read grant may name the people whose samples it covers (`authorization_grant_person`: no row for a
    /// grant of everyone's, so every grant stored before keeps its meaning); a tombstone keeps the person of what it
    /// deleted (NULL for those written before, which only grants of everyone's see), so a reader of one person's
    /// samples is told of their deletions and of nobody else's; and `sample_type_person_start` finds one person's
    /// samples of a type in date order without reading the others' (statistics of named people, which the rollup does
    /// not keep) — partial, so a sample of no person costs it nothing (docs/health-store.md, "Authorization").
    static var grantPeopleV7: String {
        """
        CREATE TABLE authorization_grant_person (
            uid INTEGER NOT NULL,
            type_id INTEGER NOT NULL REFERENCES sample_type(id),
            person TEXT NOT NULL,
            PRIMARY KEY (uid, type_id, person)
        ) STRICT, WITHOUT ROWID;
        ALTER TABLE tombstone ADD COLUMN person TEXT;
        CREATE INDEX sample_type_person_start ON sample(type_id, \(person("metadata")), start_at)
            WHERE \(person("metadata")) IS NOT NULL;
        """
    }

    // MARK: v6: rollup parts and days

    /// The rollup part of a quantity sample (migration v6): whether it belongs to a correlation (a member, or a
    /// linked sample such as a reading's pulse) and its ``MetadataKey/heartRateSensorContact`` code, if any —
    /// `4 × correlated + (contact + 1, or 0 without one)`, 0 to 7 — and, from migration v9, 8 more for a sample excluded
    /// on request. Statistics that filter by these (a reading's pulse, a sensor's values without those sent with no
    /// skin contact, what is not excluded) are summed from the parts they select (``SQLiteRollupSelection``).
    static func rollupPart(correlated: Bool, contact: MetadataValue?, excluded: Bool = false) -> Int64 {
        let code: Int64 = if case .integer(let value) = contact { value + 1 } else { 0 }
        return (excluded ? 8 : 0) + (correlated ? 4 : 0) + code
    }

    /// The JSON path of ``MetadataKey/exclusionReason`` in a row's `metadata`.
    static let exclusionPath = "$.\"\(MetadataKey.exclusionReason.name)\""

    /// ``rollupPart(correlated:contact:excluded:)`` of the `sample` row `row` in SQL, from migration v9 on: ``part(_:)``
    /// and 8 for a sample excluded on request.
    static func partV9(_ row: String) -> String {
        "(\(part(row)) + CASE WHEN json_extract(\(row).metadata, '\(exclusionPath)') IS NULL THEN 0 ELSE 8 END)"
    }

    /// v9: the rollup part also tells a sample excluded on request (``MetadataKey/exclusionReason``, on a reading and
    /// its members: docs/health-store.md, "Revising on request") — 8 more —, so that statistics leaving them out
    /// (``SamplePredicate/excludeExcluded``) are still summed from the rollup: the triggers recompute slots with the new
    /// part. No sample was excluded before, so every rollup row keeps its part.
    static var rollupV9: String {
        """
        DROP TRIGGER sample_rollup_delete;
        DROP TRIGGER sample_rollup_update;
        CREATE TRIGGER sample_rollup_delete AFTER DELETE ON sample WHEN OLD.value IS NOT NULL BEGIN
            \(recomputeSlot("OLD", part: partV9))
        END;
        CREATE TRIGGER sample_rollup_update AFTER UPDATE OF value, start_at, type_id, source_id, correlation_id, metadata ON sample
        WHEN OLD.value IS NOT NULL OR NEW.value IS NOT NULL BEGIN
            \(recomputeSlot("OLD", part: partV9))
            \(recomputeSlot("NEW", part: partV9))
        END;
        """
    }

    /// v11: an update recomputes its slots only when something the rollup holds changed — the value, the time, the
    /// type, the source or the part —, not for every new revision of a reading whose note, arm or person changed and
    /// whose member rows are revised in place (docs/health-store.md, "Revising on request"). What it sums is the same.
    static var rollupV11: String {
        """
        DROP TRIGGER sample_rollup_update;
        CREATE TRIGGER sample_rollup_update AFTER UPDATE OF value, start_at, type_id, source_id, correlation_id, metadata ON sample
        WHEN \(rollupChanged)
        BEGIN
            \(recomputeSlot("OLD", part: partV9))
            \(recomputeSlot("NEW", part: partV9))
        END;
        """
    }

    /// When an update of a `sample` row changes what the rollup holds (from migration v11): a quantity sample's value,
    /// time, type, source or part.
    static let rollupChanged = """
        (OLD.value IS NOT NULL OR NEW.value IS NOT NULL) AND (
            OLD.value IS NOT NEW.value OR OLD.start_at != NEW.start_at OR OLD.type_id != NEW.type_id
            OR OLD.source_id != NEW.source_id OR \(partV9("OLD")) != \(partV9("NEW")))
        """

    /// ``rollupPart(correlated:contact:excluded:)`` of the `sample` row `row` in SQL.
    private static func part(_ row: String) -> String {
        let path = "$.\"\(MetadataKey.heartRateSensorContact.name)\""
        return "(CASE WHEN \(row).correlation_id IS NULL THEN 0 ELSE 4 END + coalesce(json_extract(\(row).metadata, '\(path)') + 1, 0))"
    }

    /// Recomputes the rollup row of one (type, part, source, slot) from `sample`, parts as `part` computes them (``part(_:)``
    /// in v6, ``partV9(_:)`` from v9 on).
    private static func recomputeSlot(_ row: String, part: (String) -> String = part) -> String {
        let slot = slot("\(row).start_at")
        let lo = "(\(slot) * 900000000)"
        /// The samples of the row's slot, type, source and part, aliased `s`.
        func same(_ s: String) -> String {
            """
            \(s).type_id = \(row).type_id AND \(s).source_id = \(row).source_id AND \(s).start_at >= \(lo) AND \(s).start_at < \(lo) + 900000000
            AND \(s).value IS NOT NULL AND \(part(s)) = \(part(row))
            """
        }
        return """
            DELETE FROM sample_rollup WHERE type_id = \(row).type_id AND part = \(part(row)) AND slot = \(slot) AND source_id = \(row).source_id;
            INSERT INTO sample_rollup (type_id, part, slot, source_id, n, total, lo, hi, last_at, last_value)
            SELECT s1.type_id, \(part(row)), \(slot), s1.source_id, count(*), sum(s1.value), min(s1.value), max(s1.value), max(s1.start_at),
                (SELECT s2.value FROM sample s2 WHERE \(same("s2")) ORDER BY s2.start_at DESC, s2.id DESC LIMIT 1)
            FROM sample s1 WHERE \(same("s1"))
            GROUP BY s1.type_id, s1.source_id;
            """
    }

    /// Recomputes the day row of one (type, part, source, UTC day) from its slots in `sample_rollup`: the latest value
    /// is that of the slot with the latest sample (slots do not overlap, so there is one).
    private static func recomputeDay(_ row: String) -> String {
        let day = dayOfSlot("\(row).slot")
        /// The slots of the row's day, type, part and source, aliased `r`.
        func same(_ r: String) -> String {
            """
            \(r).type_id = \(row).type_id AND \(r).part = \(row).part AND \(r).slot >= \(day) * \(rollupSlotsPerDay)
            AND \(r).slot < (\(day) + 1) * \(rollupSlotsPerDay) AND \(r).source_id = \(row).source_id
            """
        }
        return """
            DELETE FROM sample_rollup_day WHERE type_id = \(row).type_id AND part = \(row).part AND day = \(day) AND source_id = \(row).source_id;
            INSERT INTO sample_rollup_day (type_id, part, day, source_id, n, total, lo, hi, last_at, last_value)
            SELECT r1.type_id, r1.part, \(day), r1.source_id, sum(r1.n), sum(r1.total), min(r1.lo), max(r1.hi), max(r1.last_at),
                (SELECT r2.last_value FROM sample_rollup r2 WHERE \(same("r2")) ORDER BY r2.last_at DESC LIMIT 1)
            FROM sample_rollup r1 WHERE \(same("r1"))
            GROUP BY r1.type_id, r1.part, r1.source_id;
            """
    }

    /// `floor(slot / 96)` in SQL.
    static func dayOfSlot(_ x: String) -> String {
        "(CASE WHEN \(x) >= 0 THEN \(x) / \(rollupSlotsPerDay) ELSE -((-\(x) - 1) / \(rollupSlotsPerDay)) - 1 END)"
    }

    /// v6: the rollup also by part (``rollupPart(correlated:contact:excluded:)``), and a second level, `sample_rollup_day`, per
    /// UTC day, so that statistics over years read a few thousand rows instead of a hundred thousand slots
    /// (docs/health-store.md, "Schema and migrations"). Slots are kept as in v2 (inserts summed per slot by
    /// ``SQLiteWriteContext``, updates and deletes recomputed by triggers on `sample`); triggers on `sample_rollup`
    /// keep the days: a slot inserted or grown (only ever by inserted samples: a recomputed slot is deleted and
    /// inserted again) is added to its day, and a deleted slot has its day recomputed from its 96 slots. Both levels
    /// are rebuilt from `sample` here.
    static var rollupV6: String {
        """
        DROP TRIGGER sample_rollup_delete;
        DROP TRIGGER sample_rollup_update;
        DROP TABLE sample_rollup;

        \(["slot": "sample_rollup", "day": "sample_rollup_day"].sorted(by: <).map { position, table in
            """
            CREATE TABLE \(table) (
                type_id INTEGER NOT NULL, part INTEGER NOT NULL, \(position) INTEGER NOT NULL, source_id INTEGER NOT NULL,
                n INTEGER NOT NULL, total REAL NOT NULL, lo REAL NOT NULL, hi REAL NOT NULL, last_at INTEGER NOT NULL, last_value REAL NOT NULL,
                PRIMARY KEY (type_id, part, \(position), source_id)
            ) STRICT, WITHOUT ROWID;
            """
        }.joined(separator: "\n"))

        INSERT INTO sample_rollup (type_id, part, slot, source_id, n, total, lo, hi, last_at, last_value)
        SELECT type_id, \(part("sample")) AS pt, \(slot("start_at")) AS sl, source_id, count(*), sum(value), min(value), max(value),
            max(start_at), 0
        FROM sample WHERE value IS NOT NULL GROUP BY type_id, pt, sl, source_id;
        UPDATE sample_rollup SET last_value = (
            SELECT s.value FROM sample s WHERE s.type_id = sample_rollup.type_id AND s.source_id = sample_rollup.source_id
              AND s.start_at = sample_rollup.last_at AND s.value IS NOT NULL AND \(part("s")) = sample_rollup.part
            ORDER BY s.id DESC LIMIT 1);
        INSERT INTO sample_rollup_day (type_id, part, day, source_id, n, total, lo, hi, last_at, last_value)
        SELECT type_id, part, \(dayOfSlot("slot")) AS d, source_id, sum(n), sum(total), min(lo), max(hi), max(last_at), 0
        FROM sample_rollup GROUP BY type_id, part, d, source_id;
        UPDATE sample_rollup_day SET last_value = (
            SELECT r.last_value FROM sample_rollup r WHERE r.type_id = sample_rollup_day.type_id AND r.part = sample_rollup_day.part
              AND r.slot = \(slot("sample_rollup_day.last_at")) AND r.source_id = sample_rollup_day.source_id);

        CREATE TRIGGER sample_rollup_delete AFTER DELETE ON sample WHEN OLD.value IS NOT NULL BEGIN
            \(recomputeSlot("OLD"))
        END;

        CREATE TRIGGER sample_rollup_update AFTER UPDATE OF value, start_at, type_id, source_id, correlation_id, metadata ON sample
        WHEN OLD.value IS NOT NULL OR NEW.value IS NOT NULL BEGIN
            \(recomputeSlot("OLD"))
            \(recomputeSlot("NEW"))
        END;

        CREATE TRIGGER sample_rollup_day_insert AFTER INSERT ON sample_rollup BEGIN
            INSERT INTO sample_rollup_day (type_id, part, day, source_id, n, total, lo, hi, last_at, last_value)
            VALUES (NEW.type_id, NEW.part, \(dayOfSlot("NEW.slot")), NEW.source_id, NEW.n, NEW.total, NEW.lo, NEW.hi, NEW.last_at, NEW.last_value)
            ON CONFLICT (type_id, part, day, source_id) DO UPDATE SET \(merge(n: "excluded.n", total: "excluded.total", "excluded"));
        END;

        CREATE TRIGGER sample_rollup_day_update AFTER UPDATE ON sample_rollup BEGIN
            UPDATE sample_rollup_day SET \(merge(n: "NEW.n - OLD.n", total: "NEW.total - OLD.total", "NEW"))
            WHERE type_id = NEW.type_id AND part = NEW.part AND day = \(dayOfSlot("NEW.slot")) AND source_id = NEW.source_id;
        END;

        CREATE TRIGGER sample_rollup_day_delete AFTER DELETE ON sample_rollup BEGIN
            \(recomputeDay("OLD"))
        END;
        """
    }
}
