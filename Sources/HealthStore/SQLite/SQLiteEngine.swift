import Foundation
import GRDB
import Synchronization

/// The SQLite engine through GRDB: one `DatabasePool` (WAL, one writer, concurrent snapshot readers).
///
/// Durability (docs/reference/HEALTH-STORE.md §12): `DatabasePool` runs `PRAGMA synchronous = NORMAL` on its writer
/// after `prepareDatabase` (GRDB `Database.setUpWALMode`), so FULL is set on the writer once the
/// pool is open, then `journal_mode = wal` and `synchronous = 2` are read back and the open fails
/// with ``HealthStoreError/durabilityNotEnforced(journalMode:synchronous:)`` otherwise. The path is
/// checked first (``SQLiteStoreFile``): a new file is created with ``StoreConfiguration/fileMode``; SQLite
/// gives its -wal and -shm files the database file's permissions.
///
/// After a write failed for a full disk, the next write first empties the write-ahead log (``write(_:)``).
public final class SQLiteEngine: HealthStoreEngine {
    let writer: any DatabaseWriter
    /// A write failed for a full disk, and no checkpoint has emptied the log since.
    let logFilledDisk = Mutex(false)
    /// Write transactions committed through ``write(_:)`` since the engine was opened.
    private let commits = Atomic<UInt64>(0)
    /// How long a statement waits for a lock another connection holds before it fails with `databaseBusy`.
    static let busyTimeout: TimeInterval = 10
    /// The page size of a new store: 1 KiB, a quarter of SQLite's default, because a commit writes each page it
    /// changes whole into the log and again into the database at the checkpoint, and a reading or a batch of
    /// heart-rate values changes a few bytes of many pages (docs/health-store.md, "Bytes written").
    static let pageSize = 1024
    let types: QuantityTypeRegistry
    let correlationTypes: [String: CorrelationType]
    let metadataKeys: [String: MetadataKey]

    /// Opens or creates the database at `path`.
    public init(path: String, configuration: StoreConfiguration) throws(HealthStoreError) {
        try SQLiteStoreFile.prepare(path, mode: mode_t(configuration.fileMode))
        var grdb = Configuration()
        grdb.busyMode = .timeout(Self.busyTimeout)
        grdb.foreignKeysEnabled = true
        // Before the pool switches a new, empty file to WAL: the page size it is made with (an existing store keeps
        // its own; SQLite changes it only by rewriting the file, which WAL mode forbids).
        grdb.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = \(Self.pageSize)")
            Self.addFunctions(db)
        }
        do {
            let pool = try DatabasePool(path: path, configuration: grdb)
            // FULL after open (GRDB's setUpWALMode set NORMAL); a 64 MiB page cache keeps a batch's
            // dirty index pages in memory until commit. Temporary files in memory: each multi-row
            // insert keeps a statement journal (its foreign-key checks may abort it), which past
            // 64 KiB went to a temp file, ≈ 400 000 pwrite calls per million samples (perf stat);
            // it holds pages of the open transaction only and is never needed after a crash.
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY")
            }
            writer = pool
        } catch {
            throw SQLiteErrorMapping.map(error)
        }
        types = configuration.quantityTypes
        correlationTypes = Dictionary(configuration.correlationTypes.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        metadataKeys = configuration.metadataRegistry
        let (journal, synchronous) = try durabilitySettings()
        guard journal == "wal", synchronous == 2 else {
            throw .durabilityNotEnforced(journalMode: journal, synchronous: synchronous)
        }
        try migrate(recording: configuration.sourceVersion)
    }

    /// The store at `path`, opened read-only: nothing is created, migrated or written, not even the WAL mode
    /// (docs/health-store.md, "The store file"). The file must be a cuffd store this build can read.
    public init(readOnlyPath path: String, configuration: StoreConfiguration) throws(HealthStoreError) {
        guard access(path, R_OK) == 0 else { throw .storageUnavailable("cannot read \(path): \(String(cString: strerror(errno)))") }
        try SQLiteStoreFile.check(path)
        var grdb = Configuration()
        grdb.readonly = true
        grdb.prepareDatabase { db in Self.addFunctions(db) }
        do {
            writer = try DatabaseQueue(path: SQLiteStoreFile.readOnlyLocation(path), configuration: grdb)
        } catch { throw SQLiteErrorMapping.map(error) }
        types = configuration.quantityTypes
        correlationTypes = Dictionary(configuration.correlationTypes.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        metadataKeys = configuration.metadataRegistry
    }

    /// An in-memory database with the same schema (no WAL, no durability).
    public init(inMemoryWith configuration: StoreConfiguration) throws(HealthStoreError) {
        var grdb = Configuration()
        grdb.foreignKeysEnabled = true
        grdb.prepareDatabase { db in Self.addFunctions(db) }
        do { writer = try DatabaseQueue(configuration: grdb) } catch { throw SQLiteErrorMapping.map(error) }
        types = configuration.quantityTypes
        correlationTypes = Dictionary(configuration.correlationTypes.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        metadataKeys = configuration.metadataRegistry
        try migrate(recording: configuration.sourceVersion)
    }

    /// Adds the SQL functions reads use (``seriesFunctions()``) to a connection.
    private static func addFunctions(_ db: Database) {
        for function in seriesFunctions() { db.add(function: function) }
    }

    /// `PRAGMA journal_mode` and `PRAGMA synchronous` as seen by the writer connection.
    public func durabilitySettings() throws(HealthStoreError) -> (journalMode: String, synchronous: Int) {
        do {
            return try writer.writeWithoutTransaction { db in
                let journal = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?"
                let synchronous = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
                return (journal, synchronous)
            }
        } catch { throw SQLiteErrorMapping.map(error) }
    }

    public func storeIdentifier() throws(HealthStoreError) -> UUID {
        try read { db in
            let blob = try Data.fetchOne(db, sql: "SELECT identifier FROM store_state WHERE id = 1") ?? Data()
            return SQLiteCoding.uuid(blob)
        }
    }

    /// `PRAGMA integrity_check` result ("ok" when sound).
    public func integrityCheck() throws(HealthStoreError) -> String {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n") }
    }

    /// Applies the migrations this build has not applied yet, each in its transaction (a store written by a
    /// newer build was refused before it was opened, ``SQLiteStoreFile``), and records `release`, the version of the
    /// program writing the store, so that an older one refusing the file can name it.
    private func migrate(recording release: String?) throws(HealthStoreError) {
        do {
            try SQLiteSchema.migrator.migrate(writer)
            if let release {
                try writer.write { try $0.execute(sql: "UPDATE store_state SET writer_release = ? WHERE id = 1", arguments: [release]) }
            }
        } catch { throw SQLiteErrorMapping.map(error) }
    }

    // MARK: Transactions with typed errors

    /// One write transaction. After a full disk it waits for the log to be emptied first (``emptyLog()``): a write
    /// that fails for space, or the checkpoint failing for space, leaves the store refusing writes for the caller to
    /// retry (docs/health-store.md, "Durability").
    func write<T>(_ body: (Database) throws -> T) throws(HealthStoreError) -> T {
        do {
            if logFilledDisk.withLock({ $0 }) { try emptyLog() }
            let result = try writer.write(body)
            commits.add(1, ordering: .releasing)
            return result
        } catch {
            let mapped = SQLiteErrorMapping.map(error)
            if mapped == .diskFull { logFilledDisk.withLock { $0 = true } }
            throw mapped
        }
    }

    /// Copies the write-ahead log into the database and truncates it to nothing (`PRAGMA wal_checkpoint(TRUNCATE)`),
    /// so that the space freed on a full disk goes to new writes instead of a log that only grows: without it, the
    /// log, never emptied while the disk was full, took the freed space back within a few dozen readings. Readers
    /// are not waited for (busy timeout 0 for the checkpoint): one reading an older snapshot leaves the log as the
    /// checkpoint could copy it, and the next write tries again.
    private func emptyLog() throws {
        let complete = try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA busy_timeout = 0")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(Self.busyTimeout * 1000))") }
            do {
                _ = try db.checkpoint(.truncate)
                return true
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                return false
            }
        }
        if complete { logFilledDisk.withLock { $0 = false } }
    }

    func read<T>(_ body: (Database) throws -> T) throws(HealthStoreError) -> T {
        do { return try writer.read(body) } catch { throw SQLiteErrorMapping.map(error) }
    }

    public var committedWrites: UInt64 { commits.load(ordering: .acquiring) }
}
