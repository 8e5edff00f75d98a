import Foundation
import GRDB

/// What a store path may name, checked before SQLite opens it (docs/health-store.md, "The store file"): a
/// regular file that is a cuffd store, or nothing yet. A symbolic link, a device, a directory, or an SQLite
/// database of another application is refused and left untouched — SQLite would follow the link, and opening a
/// database as a pool switches it to WAL, a write. Only a file created here gets the store's mode.
enum SQLiteStoreFile {
    /// `PRAGMA application_id` of every cuffd store: "CUFF" in ASCII (SQLite's file header, offset 68).
    static let applicationID: Int32 = 0x4355_4646

    /// Checks `path` and its `-wal` and `-shm` companions; creates the file (mode `mode`) when there is none.
    static func prepare(_ path: String, mode: mode_t) throws(HealthStoreError) {
        for companion in [path + "-wal", path + "-shm"] {
            var status = stat()
            if lstat(companion, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
                throw .notAStore(path: path, reason: "\(companion) is \(describe(status.st_mode))")
            }
        }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard errno == ENOENT else { throw .storageUnavailable("cannot examine \(path): \(String(cString: strerror(errno)))") }
            let fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, mode)
            guard fd >= 0 else { throw .storageUnavailable("cannot create \(path): \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            // The umask may have narrowed it; this file is cuffd's own.
            guard fchmod(fd, mode) == 0 else { throw .storageUnavailable("cannot set the mode of \(path): \(String(cString: strerror(errno)))") }
            return
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notAStore(path: path, reason: "it is \(describe(status.st_mode))") }
        if status.st_size > 0 { try identify(path) }
    }

    /// Where SQLite opens `path` to read it without writing anything beside it: with no WAL file nobody is
    /// writing it (a new file, a backup, a stopped cuffd), and it is opened as an immutable URI, so SQLite creates
    /// no -wal or -shm file; while cuffd writes it, a plain read-only connection shares its WAL.
    static func readOnlyLocation(_ path: String) -> String {
        guard access(path + "-wal", F_OK) != 0 else { return path }
        return "file:" + path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)! + "?immutable=1"
    }

    /// Refuses `path` unless it is a regular file holding a cuffd store this build can read; writes nothing.
    static func check(_ path: String) throws(HealthStoreError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw .storageUnavailable("cannot examine \(path): \(String(cString: strerror(errno)))") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notAStore(path: path, reason: "it is \(describe(status.st_mode))") }
        try identify(path)
    }

    /// Reads the file's application ID, tables and migrations without writing, and refuses anything but a cuffd
    /// store (with the ID, or from before stores carried it) that this build can read, or an empty database.
    private static func identify(_ path: String) throws(HealthStoreError) {
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: readOnlyLocation(path), configuration: configuration)
            defer { try? queue.close() }
            let migrator = SQLiteSchema.migrator
            let (id, tables, applied, writer) = try queue.read { db in
                (try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0,
                 try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"),
                 try migrator.appliedIdentifiers(db),
                 try? String.fetchOne(db, sql: "SELECT writer_release FROM store_state WHERE id = 1"))
            }
            let unknown = applied.subtracting(migrator.migrations)
            guard unknown.isEmpty else {
                let release = writer.flatMap { $0 }.map { "cuffd \($0)" } ?? "a newer cuffd"
                throw HealthStoreError.unsupportedSchema(
                    "written by \(release) (schema \(unknown.sorted().joined(separator: ", "))); this build reads schemas up to \(migrator.migrations.last ?? "none")")
            }
            if id == applicationID { return }
            guard id == 0 else {
                throw HealthStoreError.notAStore(path: path, reason: "its application ID is 0x\(String(UInt32(bitPattern: id), radix: 16)), not cuffd's")
            }
            guard tables.isEmpty || Set(tables).isSuperset(of: ["grdb_migrations", "sample", "store_state"]) else {
                throw HealthStoreError.notAStore(path: path, reason: "it is an SQLite database with the tables \(tables.prefix(5).joined(separator: ", "))")
            }
        } catch let error as HealthStoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw .notAStore(path: path, reason: "it is not an SQLite database")
        } catch {
            throw SQLiteErrorMapping.map(error)
        }
    }

    private static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: "a symbolic link"
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
    }
}
