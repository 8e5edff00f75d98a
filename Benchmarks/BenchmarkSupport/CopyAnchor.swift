import DBusTestSupport
import Foundation

/// The limit a PostgreSQL forwarding benchmark is measured beside: the rows of a central table (`readings`, `heart_rates`), dumped by
/// the server once, loaded again by `psql \copy` into the same, emptied, table over the same socket — as the
/// superuser, since COPY FROM refuses a table with row security to every other role.
public struct CopyAnchor {
    public let server: PostgresServer
    public let count: Int
    public let table: String
    private let rows: String

    /// Dumps the `count` rows `table` holds now.
    public init(_ server: PostgresServer, table: String = "readings", count: Int) throws {
        self.server = server
        self.count = count
        self.table = table
        rows = server.directory.appendingPathComponent("\(table).csv").path
        try server.psql("COPY \(table) TO '\(rows)' (FORMAT csv)", database: "health")
    }

    /// Empties the table (``emptyCentralTable(_:)``), then loads the rows with psql: the seconds it took, the CPU
    /// seconds of psql and of the server meanwhile.
    public func load() throws -> Load {
        try emptyCentralTable(server, table)
        let serverBefore = serverCPUSeconds(server), psqlBefore = childrenCPUSeconds()
        let started = ContinuousClock.now
        try server.psql("\\copy \(table) FROM '\(rows)' (FORMAT csv)", database: "health")
        let elapsed = seconds(since: started)
        let cpu = ["psql": childrenCPUSeconds() - psqlBefore, "PostgreSQL": serverCPUSeconds(server) - serverBefore]
        guard try server.psql("SELECT count(*) FROM \(table)", database: "health") == ["\(count)"] else { fatalError("COPY did not load every row") }
        return Load(readings: count, seconds: elapsed, cpuSeconds: cpu)
    }
}

/// One load of the central table measured: how many readings, in how many seconds, and the CPU seconds of each
/// process (or group of processes) that took part.
public struct Load {
    public let readings: Int
    public let seconds: Double
    public let cpuSeconds: [String: Double]

    public init(readings: Int, seconds: Double, cpuSeconds: [String: Double]) {
        self.readings = readings
        self.seconds = seconds
        self.cpuSeconds = cpuSeconds
    }

    public var perSecond: Double { Double(readings) / seconds }

    /// Microseconds of CPU per reading, each taker's, in `order`.
    public func cpuPerReading(_ order: [String]) -> String {
        order.map { String(format: "%@ %.2f", $0, (cpuSeconds[$0] ?? 0) * 1e6 / Double(readings)) }.joined(separator: ", ")
    }
}

/// Empties `table` and writes a checkpoint, so that every load measured starts from an empty table and no
/// checkpoint of the previous one's WAL runs during it.
public func emptyCentralTable(_ server: PostgresServer, _ table: String = "readings") throws {
    try server.psql("TRUNCATE \(table)", database: "health")
    try server.psql("CHECKPOINT", database: "health")
}

/// Turns autovacuum off (`ALTER SYSTEM`, §20.1.2), so that a vacuum of one load's rows does not run during the next:
/// each round of a benchmark then measures the same work, on both sides.
public func withoutAutovacuum(_ server: PostgresServer) throws {
    try server.psql("ALTER SYSTEM SET autovacuum = off")
    try server.psql("SELECT pg_reload_conf()")
}
