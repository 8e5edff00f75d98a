import DBusTestSupport
import Foundation

/// The limit a PostgreSQL forwarding benchmark is measured beside: the `count` rows of the central table `readings`,
/// dumped by the server and loaded again by `psql \copy` into the same, truncated, table over the same socket; the
/// seconds that load took.
public func copyReadingsAgain(_ server: PostgresServer, count: Int) throws -> Double {
    let rows = server.directory.appendingPathComponent("readings.csv").path
    try server.psql("COPY readings TO '\(rows)' (FORMAT csv)", database: "health")
    try server.psql("TRUNCATE readings", database: "health")
    let started = ContinuousClock.now
    try server.psql("\\copy readings FROM '\(rows)' (FORMAT csv)", database: "health")
    let elapsed = seconds(since: started)
    guard try server.psql("SELECT count(*) FROM readings", database: "health") == ["\(count)"] else { fatalError("COPY did not load every row") }
    return elapsed
}
