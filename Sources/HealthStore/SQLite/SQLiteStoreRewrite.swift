import Foundation
import GRDB

/// Rewrites a store made with another page size into ``SQLiteEngine/pageSize`` pages, on an explicit upgrade only
/// (`cuffd --rewrite-store`; docs/health-store.md, "Bytes written"). SQLite changes a page size only by rewriting the
/// whole file, which WAL mode forbids, so the store leaves WAL (its log checkpointed into the file and deleted), is
/// rewritten by `VACUUM` with the rollback journal — atomic: a crash or a power cut leaves the old file or the new
/// one, whole —, and goes back to WAL. Leaving WAL needs the only connection to the file: while cuffd or a reader
/// has it open, nothing is changed and the rewrite fails with ``HealthStoreError/databaseBusy``. `VACUUM` needs free
/// space for a copy of the store and its journal.
enum SQLiteStoreRewrite {
    /// The page sizes before and after.
    static func run(_ path: String) throws(HealthStoreError) -> (before: Int, after: Int) {
        try SQLiteStoreFile.check(path)
        do {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.writeWithoutTransaction { db in
                let before = try pageSize(db)
                guard before != SQLiteEngine.pageSize else { return (before, before) }
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE") == "delete" else {
                    throw DatabaseError(resultCode: .SQLITE_BUSY)
                }
                try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA page_size = \(SQLiteEngine.pageSize); VACUUM")
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                return (before, try pageSize(db))
            }
        } catch { throw SQLiteErrorMapping.map(error) }
    }

    private static func pageSize(_ db: Database) throws -> Int { try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0 }
}
