// The comparison's postgres-nio side: one `PostgresConnection` on an event loop group of one thread (the fewest
// threads postgres-nio can run on), driven from the main thread through its EventLoopFuture API and `wait()` —
// blocking like libpq's calls, so that no Swift concurrency executor (and none of libdispatch's worker threads)
// enters the measurement. TLS required, the certificate verified against the run's CA for the host's name.
import Glibc
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import Workload

Workload.blockSignals()
let arguments = Workload.Arguments()
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let logger = Logger(label: "postgres-nio-idle", factory: { _ in SwiftLogNoOpLogHandler() })
let connection: PostgresConnection
do {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .file(arguments.rootCertificate)
    tls.certificateVerification = .fullVerification
    let configuration = PostgresConnection.Configuration(
        host: arguments.host, port: arguments.port, username: arguments.user, password: arguments.password,
        database: arguments.database, tls: .require(try NIOSSLContext(configuration: tls)))
    connection = try PostgresConnection.connect(on: group.next(), configuration: configuration, id: 1, logger: logger).wait()
    _ = try connection.query(PostgresQuery(unsafeSQL: Workload.createTable(arguments.table)), logger: logger).wait()
} catch {
    fatalError("postgres-nio: \(error)")
}

func upsert(batch number: Int, into table: String, on connection: PostgresConnection, logger: Logger) throws {
    let batch = Workload.Batch(number)
    var bindings = PostgresBindings(capacity: 6)
    bindings.append(batch.identifiers)
    bindings.append(batch.versions)
    bindings.append(batch.systolic)
    bindings.append(batch.diastolic)
    bindings.append(batch.pulse)
    bindings.append(batch.time)
    _ = try connection.query("BEGIN", logger: logger).wait()
    _ = try connection.query(PostgresQuery(unsafeSQL: Workload.upsert(table), binds: bindings), logger: logger).wait()
    _ = try connection.query("COMMIT", logger: logger).wait()
}

do {
    try upsert(batch: 0, into: arguments.table, on: connection, logger: logger)
    try Workload.serve(batchesDone: 1) {
        for number in 1..<1_000 { try upsert(batch: number, into: arguments.table, on: connection, logger: logger) }
        return 1_000
    }
} catch {
    fatalError("postgres-nio: \(error)")
}
