import Foundation
import GRDB

/// One `sample` row as the engine inserts it: ids resolved, times in microseconds, metadata as its
/// JSON text, the row id chosen by ``SQLiteWriteContext/nextRowID()``.
struct SQLiteSampleRow {
    let id: Int64
    let uuid: UUID
    let typeID: Int64
    let isCorrelation: Bool
    let value: Double?
    let start: Int64
    let end: Int64
    let timeZone: String?
    let sourceID: Int64
    let revisionID: Int64
    let deviceID: Int64?
    let metadata: SQLiteText?
    let syncIdentifier: String?
    let syncVersion: Int64?
    let correlationID: Int64?
    let isMember: Bool
    let createdAt: Int64
    let changeSeq: Int64
    /// Its part of the rollup (``SQLiteSchema/rollupPart(correlated:contact:excluded:)``), for a quantity sample.
    let rollupPart: Int64
}

/// Inserts `sample` rows of one write transaction in multi-row `INSERT … VALUES (…), (…)`
/// statements.
///
/// Each statement run costs SQLite a fixed share (opening a cursor on the table and each index,
/// descending every b-tree from its root, closing them, and saving the pages it changes in its
/// statement journal): with 64 rows per statement SQLite's work per row fell from ≈ 27 000 to
/// ≈ 14 000 instructions, with 256 by another ≈ 700 (callgrind, SQLite 3.40.1, this schema).
/// Rows wait in ``pending`` until 256 are there or ``flush()`` runs; pending rows are not visible
/// to SQL, so the write context flushes before anything reads or changes `sample`.
///
/// Every run of a statement binds each of its parameters, so values bound in place (UUIDs from
/// `uuidBytes`, metadata as ``SQLiteText``) need to live only until that run has finished.
///
/// Row ids are explicit, so a correlation's members can name their parent before it is written;
/// parents precede their children in ``pending``, so the foreign key `correlation_id` always finds
/// its row. A constraint failure rolls back only the failing statement (SQLite's ABORT); its rows
/// are then inserted one at a time, so the error names the offending row as before.
final class SQLiteSampleInserter {
    /// Rows per statement, largest first; a flush splits the remainder greedily (≤ 12 statements).
    static let statementSizes = [256, 64, 16, 4, 1]
    private static let columnCount: Int32 = 18
    private static let insertPrefix = """
        INSERT INTO sample (id, uuid, type_id, is_correlation, value, start_at, end_at, time_zone, source_id,
            revision_id, device_id, metadata, sync_identifier, sync_version, correlation_id, is_member,
            created_at, change_seq)
        VALUES
        """

    private let db: Database
    private var statements: [Int: SQLiteRawStatement] = [:]
    private(set) var pending: [SQLiteSampleRow] = []
    /// The UUIDs of the statement being run, 16 bytes each, bound in place (no copy by SQLite).
    private let uuidBytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * statementSizes[0], alignment: 16)

    init(_ db: Database) {
        self.db = db
        pending.reserveCapacity(Self.statementSizes[0])
    }

    deinit { uuidBytes.deallocate() }

    func append(_ row: SQLiteSampleRow) throws {
        pending.append(row)
        if pending.count == Self.statementSizes[0] {
            try write(pending[...])
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Writes every pending row.
    func flush() throws {
        var rest = pending[...]
        for size in Self.statementSizes {
            while rest.count >= size {
                try write(rest.prefix(size))
                rest = rest.dropFirst(size)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    private func write(_ rows: ArraySlice<SQLiteSampleRow>) throws {
        let statement = try self.statement(rows: rows.count)
        var index: Int32 = 0
        for (k, row) in rows.enumerated() {
            let uuid = UnsafeMutableRawBufferPointer(rebasing: uuidBytes[(16 * k)..<(16 * k + 16)])
            uuid.storeBytes(of: row.uuid.uuid, as: uuid_t.self)
            statement.bind(row.id, at: index + 1)
            statement.bindInPlace(UnsafeRawBufferPointer(uuid), at: index + 2)
            statement.bind(row.typeID, at: index + 3)
            statement.bind(row.isCorrelation, at: index + 4)
            statement.bind(row.value, at: index + 5)
            statement.bind(row.start, at: index + 6)
            statement.bind(row.end, at: index + 7)
            statement.bind(row.timeZone, at: index + 8)
            statement.bind(row.sourceID, at: index + 9)
            statement.bind(row.revisionID, at: index + 10)
            statement.bind(row.deviceID, at: index + 11)
            statement.bind(row.metadata, at: index + 12)
            statement.bind(row.syncIdentifier, at: index + 13)
            statement.bind(row.syncVersion, at: index + 14)
            statement.bind(row.correlationID, at: index + 15)
            statement.bind(row.isMember, at: index + 16)
            statement.bind(row.createdAt, at: index + 17)
            statement.bind(row.changeSeq, at: index + 18)
            index += Self.columnCount
        }
        do {
            try statement.execute()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            guard rows.count == 1, let row = rows.first else {
                // The statement was rolled back; the offending row fails again on its own.
                for single in rows.indices { try write(rows[single...single]) }
                return
            }
            throw Self.describe(error, row)
        }
    }

    /// A constraint failure of one row as the caller's error: the UUID or the sync identifier
    /// already stored; anything else stays SQLite's error.
    private static func describe(_ error: DatabaseError, _ row: SQLiteSampleRow) -> any Error {
        if error.message?.contains("sample.uuid") == true { return HealthStoreError.duplicateUUID(row.uuid) }
        if error.message?.contains("sample.sync_identifier") == true {
            return HealthStoreError.invalidMetadata(key: MetadataKey.syncIdentifier.name, reason: "'\(row.syncIdentifier ?? "")' is already stored for this source")
        }
        return error
    }

    private func statement(rows: Int) throws -> SQLiteRawStatement {
        if let statement = statements[rows] { return statement }
        let tuple = "(" + Array(repeating: "?", count: Int(Self.columnCount)).joined(separator: ", ") + ")"
        let sql = Self.insertPrefix + " " + Array(repeating: tuple, count: rows).joined(separator: ", ")
        let statement = try SQLiteRawStatement(db, sql: sql)
        statements[rows] = statement
        return statement
    }
}
