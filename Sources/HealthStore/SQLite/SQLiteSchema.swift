import GRDB

/// Versioned schema of the SQLite engine (GRDB `DatabaseMigrator`; each migration runs once, in a
/// transaction, recorded in `grdb_migrations`). Never edit a shipped migration: append a new one.
///
/// Rules carried by the schema (HEALTH-STORE.md §3–4): `STRICT` tables; `CHECK (start_at <= end_at)`;
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
                CREATE INDEX sample_type_start ON sample(type_id, start_at, value, source_id);
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
        return migrator
    }
}
