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
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return read(result)
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = Self.message(result.map { PQresultErrorMessage($0) } ?? PQerrorMessage(connection))
            throw PostgresError(message: message, sqlState: state, connectionLost: PQstatus(connection) == CONNECTION_BAD)
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
