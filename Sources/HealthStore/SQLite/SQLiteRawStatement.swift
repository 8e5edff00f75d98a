import Foundation
import GRDB
import GRDBSQLite

/// A statement prepared and cached by GRDB but bound and stepped through SQLite's C API
/// (`sqlite3_bind_*`, `sqlite3_step`, `sqlite3_column_*`), for the per-row statements of a write.
///
/// GRDB's `execute(arguments:)` boxes every value in a `DatabaseValue`, builds a
/// `StatementArguments` array, validates it against the statement and binds through generic
/// witnesses on each call: callgrind counted ≈ 26 000 instructions per inserted `sample` row for
/// that alone, about as much as SQLite's own insert (docs/health-store.md, "Where the time goes").
///
/// Only for statements run inside a transaction the engine opened with GRDB's `write`: stepping
/// around GRDB skips its transaction-observer bookkeeping, which matters only to GRDB
/// `TransactionObserver`s and `ValueObservation`s, and the engine registers none (it signals its
/// own observers after commit). A failed step resets the statement, so it stays reusable.
///
/// The first half of that is checked here: a statement is made only inside a transaction (``OutsideTransaction``
/// otherwise). The second holds because nothing in HealthStore calls GRDB's `add(transactionObserver:)` or starts
/// a `ValueObservation` (`RawStatementTests` checks the sources).
struct SQLiteRawStatement {
    /// A raw statement asked for outside a transaction, where its steps would escape GRDB's bookkeeping.
    struct OutsideTransaction: Error, CustomStringConvertible {
        let sql: String
        var description: String { "a raw SQLite statement outside a transaction: \(sql.prefix(60))" }
    }

    private let statement: Statement

    init(_ db: Database, sql: String) throws {
        guard db.isInsideTransaction else { throw OutsideTransaction(sql: sql) }
        statement = try db.cachedStatement(sql: sql)
    }

    private var handle: OpaquePointer { statement.sqliteStatement }

    /// SQLite copies text and blobs bound with this destructor (the C macro is not imported).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    // MARK: Binding (1-based indices, as in SQLite)

    func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }

    func bind(_ value: Int64?, at index: Int32) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ value: Bool, at index: Int32) { sqlite3_bind_int64(handle, index, value ? 1 : 0) }

    func bind(_ value: Double?, at index: Int32) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    func bind(_ value: String?, at index: Int32) {
        guard let value else {
            sqlite3_bind_null(handle, index)
            return
        }
        sqlite3_bind_text(handle, index, value, -1, Self.transient)
    }

    /// Text SQLite reads in place (`SQLITE_STATIC`, no copy); `text` must stay alive until the
    /// statement has run.
    func bind(_ text: SQLiteText?, at index: Int32) {
        guard let text else {
            sqlite3_bind_null(handle, index)
            return
        }
        sqlite3_bind_text(handle, index, text.utf8.baseAddress, Int32(text.utf8.count), nil)
    }

    /// A blob SQLite reads in place (`SQLITE_STATIC`, no copy); the bytes must stay unchanged
    /// until the statement has run.
    func bindInPlace(_ bytes: UnsafeRawBufferPointer, at index: Int32) {
        sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), nil)
    }

    // MARK: Stepping

    /// Runs a statement that returns no rows, then resets it; a failure throws GRDB's
    /// `DatabaseError` with SQLite's extended code and message, as `execute(arguments:)` would.
    func execute() throws {
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE else { throw lastError() }
    }

    /// Steps once: `true` when a row is available (read it with the column accessors), `false`
    /// when done. Call ``reset()`` when finished with the rows.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let failure = lastError()
        sqlite3_reset(handle)
        throw failure
    }

    func reset() { sqlite3_reset(handle) }

    // MARK: Columns of the current row (0-based indices, as in SQLite)

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func optionalInt64(_ column: Int32) -> Int64? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column)
    }

    func optionalText(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        return String(cString: text)
    }

    func uuid(_ column: Int32) -> UUID {
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if let blob = sqlite3_column_blob(handle, column) {
            let count = min(16, Int(sqlite3_column_bytes(handle, column)))
            withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: count)) }
        }
        return UUID(uuid: raw)
    }

    private func lastError() -> DatabaseError {
        // Read before any reset; the extended code (e.g. SQLITE_CONSTRAINT_UNIQUE) keeps the detail.
        let connection = sqlite3_db_handle(handle)
        return DatabaseError(
            resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
            message: String(cString: sqlite3_errmsg(connection)), sql: statement.sql)
    }
}
