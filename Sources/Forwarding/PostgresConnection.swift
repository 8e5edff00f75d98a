import CPostgreSQL
import Glibc
import INIConfiguration

/// One libpq connection (PostgreSQL 15 documentation, chapter 34 "libpq — C Library"), used from one task at a
/// time. Calls block until the server answers: cuff-forward does one thing at a time, and waits for it.
final class PostgresConnection {
    private let connection: OpaquePointer

    /// Connects with keyword/value parameters (`PQconnectdbParams`, §34.1); with `expand_dbname` set, a `dbname`
    /// that is a URI is expanded, and later parameters override what it says.
    init(parameters: [(String, String)]) throws(PostgresError) {
        let keywords = parameters.map { strdup($0.0) } + [nil]
        let values = parameters.map { strdup($0.1) } + [nil]
        defer { (keywords + values).forEach { free($0) } }
        let connection = keywords.withUnsafeBufferPointer { keywords in
            values.withUnsafeBufferPointer { values in
                keywords.withMemoryRebound(to: UnsafePointer<CChar>?.self) { keywords in
                    values.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                        PQconnectdbParams(keywords.baseAddress, values.baseAddress, 1)
                    }
                }
            }
        }
        guard let connection else { throw PostgresError(message: "libpq could not allocate a connection", sqlState: nil, connectionLost: true) }
        guard PQstatus(connection) == CONNECTION_OK else {
            let error = PostgresError(message: Self.message(PQerrorMessage(connection)), sqlState: nil, connectionLost: true)
            PQfinish(connection)
            throw error
        }
        // NOTICEs (`CREATE TABLE IF NOT EXISTS` on an existing table) would go to stderr by default (§34.13).
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        self.connection = connection
    }

    deinit {
        PQfinish(connection)
    }

    /// Whether the session is encrypted (`PQsslInUse`, §34.2).
    var usesTLS: Bool { PQsslInUse(connection) == 1 }

    /// Runs one statement with text parameters `$1…$n` (`PQexecParams`, §34.3.1; nil is SQL NULL) and returns
    /// its rows as text. Without parameters it is `PQexec`, which also runs several statements separated by
    /// semicolons (a migration), as one implicit transaction unless they say otherwise.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [[String?]] {
        try execute(sql, parameters: parameters.map(PostgresParameter.text))
    }

    /// Runs one statement with parameters each in text or binary form (`PQexecParams`' `paramFormats`, §34.3.1),
    /// and returns its rows as text.
    @discardableResult
    func execute(_ sql: String, parameters: [PostgresParameter]) throws(PostgresError) -> [[String?]] {
        try run(sql, parameters) { result in
            (0..<PQntuples(result)).map { row in
                (0..<PQnfields(result)).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                }
            }
        }
    }

    /// Runs one INSERT, UPDATE or DELETE as ``execute(_:parameters:)`` does, and returns how many rows it inserted,
    /// updated or deleted (`PQcmdTuples`, §34.3.3) — for an INSERT with a conflict clause, the rows it did not skip.
    func executeCountingRows(_ sql: String, parameters: [PostgresParameter]) throws(PostgresError) -> Int {
        try run(sql, parameters) { result in Int(String(cString: PQcmdTuples(result))) ?? 0 }
    }

    /// Runs `COPY … FROM STDIN` (§34.10, "Functions Associated with the COPY Command"): `write` hands the input to
    /// the server in pieces through ``CopyIn/send(_:)`` — libpq's output buffer then grows to a piece, not to the whole
    /// input —, and the server's answer to its end is awaited. Returns how many rows the server copied. A failure
    /// while writing ends the COPY with an error, so that the server discards what it received.
    func copy(_ sql: String, _ write: (CopyIn) throws(PostgresError) -> Void) throws(PostgresError) -> Int {
        let start = PQexec(connection, sql)
        guard PQresultStatus(start) == PGRES_COPY_IN else {
            defer { PQclear(start) }
            try check(start) { _ in }
            throw PostgresError(message: "\(sql) started no COPY", sqlState: nil, connectionLost: false)
        }
        PQclear(start)
        do {
            try write(CopyIn(connection: connection, failure: failure))
        } catch {
            if PQputCopyEnd(connection, "cuff-forward stopped the COPY") == 1 { while let rest = PQgetResult(connection) { PQclear(rest) } }
            throw error
        }
        guard PQputCopyEnd(connection, nil) == 1 else { throw failure() }
        let end = PQgetResult(connection)
        defer { while let rest = PQgetResult(connection) { PQclear(rest) } }
        defer { PQclear(end) }
        return try check(end) { result in Int(String(cString: PQcmdTuples(result))) ?? 0 }
    }

    /// The input of a COPY in progress (``copy(_:_:)``).
    struct CopyIn {
        fileprivate let connection: OpaquePointer
        fileprivate let failure: () -> PostgresError

        /// Hands `bytes` to libpq, which sends them once its buffer is full (`PQputCopyData`).
        func send(_ bytes: [UInt8]) throws(PostgresError) {
            let sent = bytes.withUnsafeBytes { bytes in
                PQputCopyData(connection, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
            }
            guard sent == 1 else { throw failure() }
        }
    }

    /// The connection's last error (`PQerrorMessage`), lost or not.
    private func failure() -> PostgresError {
        PostgresError(message: Self.message(PQerrorMessage(connection)), sqlState: nil, connectionLost: PQstatus(connection) == CONNECTION_BAD)
    }

    /// Runs `sql` and hands its successful result to `read` before the result is freed.
    private func run<T>(_ sql: String, _ parameters: [PostgresParameter], _ read: (OpaquePointer?) -> T) throws(PostgresError) -> T {
        let values: [UnsafeMutablePointer<CChar>?] = parameters.map { parameter in
            switch parameter {
            case .text(let text): return text.map { strdup($0) } ?? nil
            case .binary(let bytes):
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
                bytes.withUnsafeBytes { if let base = $0.baseAddress { UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: bytes.count) } }
                return copy
            }
        }
        defer {
            for (value, parameter) in zip(values, parameters) {
                if case .binary = parameter { value?.deallocate() } else { free(value) }
            }
        }
        let lengths = parameters.map { parameter -> Int32 in if case .binary(let bytes) = parameter { Int32(bytes.count) } else { 0 } }
        let formats = parameters.map { parameter -> Int32 in if case .binary = parameter { 1 } else { 0 } }
        let result = parameters.isEmpty ? PQexec(connection, sql) : values.withUnsafeBufferPointer { values in
            values.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                PQexecParams(connection, sql, Int32(values.count), nil, values.baseAddress, lengths, formats, 0)
            }
        }
        defer { PQclear(result) }
        return try check(result, read)
    }

    /// `read` of `result` when it is a success, else the error it holds.
    private func check<T>(_ result: OpaquePointer?, _ read: (OpaquePointer?) -> T) throws(PostgresError) -> T {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return read(result)
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = Self.message(result.map { PQresultErrorMessage($0) } ?? PQerrorMessage(connection))
            throw PostgresError(
                message: message, sqlState: state, connectionLost: PQstatus(connection) == CONNECTION_BAD || PostgresError.endsSession(state))
        }
    }

    /// Runs `body` between BEGIN and COMMIT; a failure rolls back (§3.4 "Transactions"). COMMIT returning is the
    /// server's acknowledgement that what `body` wrote is durable.
    func transaction<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if !error.connectionLost { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        text.map { String(cString: $0) }.map { $0.trimmingWhitespace() } ?? "unknown libpq error"
    }
}
