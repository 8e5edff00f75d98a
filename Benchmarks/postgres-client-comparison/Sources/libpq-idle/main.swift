// The comparison's libpq side: cuff-forward's own `PostgresConnection` over Debian's libpq, its blocking calls on
// the main thread, as cuff-forward makes them; the numbers in binary form and the text as array literals, as
// `CentralWriter` sends them (`PostgresArray`).
import Glibc
import Workload

Workload.blockSignals()
let arguments = Workload.Arguments()
let connection: PostgresConnection
do {
    connection = try PostgresConnection(parameters: [
        ("host", arguments.host), ("port", String(arguments.port)), ("user", arguments.user), ("password", arguments.password),
        ("dbname", arguments.database), ("sslmode", "verify-full"), ("sslrootcert", arguments.rootCertificate),
    ])
    guard connection.usesTLS else { fatalError("the session is not encrypted") }
    try connection.execute(Workload.createTable(arguments.table))
} catch {
    fatalError("libpq: \(error)")
}

func upsert(batch number: Int, into table: String, on connection: PostgresConnection) throws(PostgresError) {
    let batch = Workload.Batch(number)
    _ = try connection.transaction { () throws(PostgresError) in
        try connection.execute(Workload.upsert(table), parameters: [
            .text(PostgresArray.literal(batch.identifiers)), .binary(PostgresArray.binary(batch.versions)),
            .binary(PostgresArray.binary(batch.systolic)), .binary(PostgresArray.binary(batch.diastolic)),
            .binary(PostgresArray.binary(batch.pulse)), .binary(PostgresArray.binary(batch.time)),
        ])
    }
}

do {
    try upsert(batch: 0, into: arguments.table, on: connection)
    try Workload.serve(batchesDone: 1) { () throws(PostgresError) in
        for number in 1..<1_000 { try upsert(batch: number, into: arguments.table, on: connection) }
        return 1_000
    }
} catch {
    fatalError("libpq: \(error)")
}
