// Catch-up of a backlog (docs/forwarding.md): cuffd on a store of READINGS readings, cuff-forward from
// anchor 0 into an empty central table, in readings per second — beside the limit measured in the same run, psql's
// `\copy` of the same rows into the same table. Then cuff-forward's resident memory, caught up and idle.
//
// Run (root: PostgreSQL runs as nobody): swift build -c release && swift run -c release forward-benchmark [--tls] [READINGS] [CUFF_FORWARD]
// CUFF_FORWARD is the binary measured, by default the one beside this program; `make`'s is .build/static/release/cuff-forward.
// Without --tls, cuff-forward reaches the server on its Unix socket (SSLMode=disable); with it, as deployed: over TCP to
// `localhost` with SSLMode=verify-full against the run's own CA (TLS's handshake and libpq's GSSAPI probe run then).
// With --heart-rate, the backlog is READINGS (by default 86 400: a day of a 1 Hz strap) heart-rate samples instead,
// forwarded into `heart_rates` (goal: a day in ≤ 5 s); no \copy beside it.
import BenchmarkSupport
import DBusTestSupport
import Foundation

let tls = CommandLine.arguments.contains("--tls")
let heartRate = CommandLine.arguments.contains("--heart-rate")
let arguments = CommandLine.arguments.filter { $0 != "--tls" && $0 != "--heart-rate" }
let defaultCount = heartRate ? 86_400 : 100_000
let count = arguments.count > 1 ? Int(arguments[1]) ?? defaultCount : defaultCount

let directory: URL, storePath: String
if heartRate {
    directory = try temporaryDirectory("forward-benchmark")
    storePath = directory.appendingPathComponent("health.sqlite").path
    try await makeHeartRateStore(storePath, count: count)
} else {
    (directory, storePath) = try backlog("forward-benchmark", count: count)
}
defer { try? FileManager.default.removeItem(at: directory) }
let server = try PostgresServer(tls: tls)
defer { server.remove() }
try server.psql("CREATE DATABASE health")
let passwordFile = directory.appendingPathComponent("password").path
try server.superuserPassword.write(toFile: passwordFile, atomically: false, encoding: .utf8)
let configuration = try forwardConfiguration(in: directory, sink: """
    [PostgreSQL]
    URL=\(server.certificates.map { "postgresql://postgres@localhost:\(server.port)/health?sslrootcert=\($0.authority)" }
        ?? "postgresql://postgres@/health?host=\(server.socketDirectory)&port=\(server.port)")
    PasswordFile=\(passwordFile)
    SSLMode=\(tls ? "verify-full" : "disable")
    """)
let forwardBinary = arguments.count > 2 ? arguments[2] : binaries.appendingPathComponent("cuff-forward").path

let (forwardSeconds, caughtUpKiB, idleKiB, peak) = try withCuffd(storePath: storePath) { bus, _ in
    let migrate = try ExternalCommand.run(forwardBinary, ["--config", configuration, "--migrate"])
    guard migrate.status == 0 else { fatalError("--migrate: \(migrate.standardError)") }
    evictFromPageCache(forwardBinary)
    let started = ContinuousClock.now
    let forwarder = try ChildProcess(
        forwardBinary, ["--config", configuration, "--bus", bus.address], standardError: .discard, environment: try unitEnvironment("cuff-forward.service"))
    defer { forwarder.terminate() }
    // One session that looks every 10 ms for the backlog's last reading (a primary-key look-up): pages commit in
    // the store's order, so when it is there, all are — counted once below. Not a psql started each time, nor a
    // count(*) each time: on two cores either took CPU from the pipeline it measures.
    let (table, last) = heartRate
        ? ("heart_rates", syntheticHeartRate(count - 1).syncIdentifier) : ("readings", syntheticReading(count - 1).syncIdentifier)
    try server.psql("DO $$ BEGIN WHILE NOT EXISTS (SELECT 1 FROM \(table) WHERE sync_identifier = '\(last)') LOOP PERFORM pg_sleep(0.01); END LOOP; END $$", database: "health")
    let elapsed = seconds(since: started)
    guard try server.psql("SELECT count(*) FROM \(table)", database: "health") == ["\(count)"] else { fatalError("the last row arrived before others") }
    let caughtUp = kibibytes("VmRSS", of: forwarder.pid)
    Thread.sleep(forTimeInterval: 6)
    return (elapsed, caughtUp, kibibytes("VmRSS", of: forwarder.pid), peakKiB(forwarder.pid))
}

if heartRate {
    print(String(format: "%d heart-rate samples: cuff-forward %.0f samples/s (%.2f s; goal for 86 400: ≤ 5 s)", count, Double(count) / forwardSeconds, forwardSeconds))
} else {
    // The same rows, as the server holds them, copied in again by psql over the same socket.
    let copySeconds = try copyReadingsAgain(server, count: count)
    let forwardRate = Double(count) / forwardSeconds, copyRate = Double(count) / copySeconds
    print(String(format: "%d readings: cuff-forward %.0f readings/s (%.2f s), psql \\copy %.0f readings/s (%.2f s); ratio %.3f (goal ≥ 0.5)",
                 count, forwardRate, forwardSeconds, copyRate, copySeconds, forwardRate / copyRate))
}
print("cuff-forward RSS: peak \(mebibytes(peak)), caught up \(mebibytes(caughtUpKiB)), idle 6 s later \(mebibytes(idleKiB))")
