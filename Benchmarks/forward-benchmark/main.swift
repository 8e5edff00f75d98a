// Catch-up of a backlog (docs/forwarding.md): cuffd on a store of READINGS readings, cuff-forward from anchor 0 into an
// empty central table, in readings per second — beside the limit, psql's `\copy` of the same rows into the same
// table, measured alternately with it in ROUNDS rounds (the order swapped every other round), each load starting
// from an empty table after a checkpoint, autovacuum off. Per round and as medians: the rates and their ratio, the
// CPU each process spent per reading, and cuff-forward's resident memory, caught up and idle.
//
// Run (root: PostgreSQL runs as nobody): swift build -c release && .build/release/forward-benchmark [--tls] [--rounds N] [READINGS] [CUFF_FORWARD…]
// CUFF_FORWARD is a binary measured, by default the one beside this program; `make`'s is .build/static/release/cuff-forward.
// Several (an older build beside a newer) are measured in turn in each round, beside the same \copy.
// Without --tls, cuff-forward reaches the server on its Unix socket (SSLMode=disable); with it, as deployed: over TCP to
// `localhost` with SSLMode=verify-full against the run's own CA (TLS's handshake and libpq's GSSAPI probe run then).
// With --heart-rate, the backlog is READINGS (by default 86 400: a day of a 1 Hz strap) heart-rate samples instead,
// forwarded into `heart_rates` (goal: a day in ≤ 5 s), beside psql's \copy of them.
import BenchmarkSupport
import DBusTestSupport
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
let tls = arguments.contains("--tls")
let heartRate = arguments.contains("--heart-rate")
arguments.removeAll { $0 == "--tls" || $0 == "--heart-rate" }
var roundCount = 3
if let flag = arguments.firstIndex(of: "--rounds"), flag + 1 < arguments.count {
    roundCount = max(1, Int(arguments[flag + 1]) ?? 3)
    arguments.removeSubrange(flag...flag + 1)
}
let count = arguments.first.flatMap { Int($0) } ?? (heartRate ? 86_400 : 100_000)
let (table, rowName) = heartRate ? ("heart_rates", "samples") : ("readings", "readings")

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
try withoutAutovacuum(server)
let passwordFile = directory.appendingPathComponent("password").path
try server.superuserPassword.write(toFile: passwordFile, atomically: false, encoding: .utf8)
let configuration = try forwardConfiguration(in: directory, sink: """
    [PostgreSQL]
    URL=\(server.certificates.map { "postgresql://postgres@localhost:\(server.port)/health?sslrootcert=\($0.authority)" }
        ?? "postgresql://postgres@/health?host=\(server.socketDirectory)&port=\(server.port)")
    PasswordFile=\(passwordFile)
    SSLMode=\(tls ? "verify-full" : "disable")
    """)
let anchorPath = directory.appendingPathComponent("anchor").path
let forwardBinaries = arguments.count > 1 ? Array(arguments.dropFirst()) : [binaries.appendingPathComponent("cuff-forward").path]

/// One catch-up by cuff-forward and what it left resident.
struct Forwarded {
    let load: Load
    let caughtUpKiB: Int, idleKiB: Int, peakKiB: Int
}

let rounds = try withCuffd(storePath: storePath) { bus, cuffd -> [(forwarded: [Forwarded], copied: Load)] in
    let migrate = try ExternalCommand.run(forwardBinaries[0], ["--config", configuration, "--migrate"])
    guard migrate.status == 0 else { fatalError("--migrate: \(migrate.standardError)") }
    guard let busDaemon = busDaemon(bus) else { fatalError("no dbus-daemon for \(bus.address)") }

    /// cuff-forward from anchor 0 into the emptied table, until the backlog's last row is there.
    func forward(_ forwardBinary: String) throws -> Forwarded {
        try emptyCentralTable(server, table)
        // Both feeds' anchors (the heart-rate feed's beside the readings', docs/forwarding.md): each round from 0.
        for anchor in [anchorPath, directory.appendingPathComponent("heart-rate-anchor").path] { try? FileManager.default.removeItem(atPath: anchor) }
        evictFromPageCache(forwardBinary)
        let cuffdBefore = cpuSeconds(cuffd.pid), busBefore = cpuSeconds(busDaemon), serverBefore = serverCPUSeconds(server)
        let started = ContinuousClock.now
        let forwarder = try ChildProcess(
            forwardBinary, ["--config", configuration, "--bus", bus.address], standardError: .discard, environment: try unitEnvironment("cuff-forward.service"))
        defer { forwarder.terminate() }
        // One session that looks every 10 ms for the backlog's last row (a primary-key look-up): pages commit in
        // the store's order, so when it is there, all are — counted once below. Not a psql started each time, nor a
        // count(*) each time: on two cores either took CPU from the pipeline it measures.
        let last = heartRate ? syntheticHeartRate(count - 1).syncIdentifier : syntheticReading(count - 1).syncIdentifier
        try server.psql("DO $$ BEGIN WHILE NOT EXISTS (SELECT 1 FROM \(table) WHERE sync_identifier = '\(last)') LOOP PERFORM pg_sleep(0.01); END LOOP; END $$", database: "health")
        let elapsed = seconds(since: started)
        let cpu = [
            "cuffd": cpuSeconds(cuffd.pid) - cuffdBefore, "dbus-daemon": cpuSeconds(busDaemon) - busBefore,
            "cuff-forward": cpuSeconds(forwarder.pid), "PostgreSQL": serverCPUSeconds(server) - serverBefore,
        ]
        guard try server.psql("SELECT count(*) FROM \(table)", database: "health") == ["\(count)"] else { fatalError("the last row arrived before others") }
        let caughtUp = kibibytes("VmRSS", of: forwarder.pid)
        Thread.sleep(forTimeInterval: 6)
        return Forwarded(
            load: Load(readings: count, seconds: elapsed, cpuSeconds: cpu), caughtUpKiB: caughtUp,
            idleKiB: kibibytes("VmRSS", of: forwarder.pid), peakKiB: peakKiB(forwarder.pid))
    }

    var anchor: CopyAnchor?
    var results: [(forwarded: [Forwarded], copied: Load)] = []
    for round in 1...roundCount {
        let forwarded: [Forwarded], copied: Load
        if let anchor, round.isMultiple(of: 2) {
            copied = try anchor.load()
            forwarded = try forwardBinaries.reversed().map(forward).reversed()
        } else {
            forwarded = try forwardBinaries.map(forward)
            anchor = try anchor ?? CopyAnchor(server, table: table, count: count)
            copied = try anchor!.load()
        }
        results.append((forwarded, copied))
        for (binary, forwarded) in zip(forwardBinaries, forwarded) {
            print(String(format: "round %d: %@ %.0f %@/s (%.2f s), psql \\copy %.0f %@/s (%.2f s): %.3f; load average %@",
                         round, binary, forwarded.load.perSecond, rowName, forwarded.load.seconds, copied.perSecond, rowName, copied.seconds,
                         forwarded.load.perSecond / copied.perSecond, loadAverage()))
            print("  µs of CPU per reading: catch-up \(forwarded.load.cpuPerReading(["cuffd", "dbus-daemon", "cuff-forward", "PostgreSQL"])); "
                  + "\\copy \(copied.cpuPerReading(["psql", "PostgreSQL"]))")
        }
    }
    return results
}

let copyRates = rounds.map(\.copied.perSecond), copiedLoads = rounds.map(\.copied)
func medianCPU(_ loads: [Load], _ taker: String) -> String {
    String(format: "%@ %.2f", taker, median(loads.map { ($0.cpuSeconds[taker] ?? 0) * 1e6 / Double($0.readings) }))
}
func medianMiB(_ figures: [Int]) -> String { mebibytes(Int(median(figures.map(Double.init)))) }
print(String(format: "%d %@, median of %d rounds: psql \\copy %.0f %@/s; µs of CPU per row %@", count, rowName, rounds.count, median(copyRates), rowName,
             ["psql", "PostgreSQL"].map { medianCPU(copiedLoads, $0) }.joined(separator: ", ")))
for (index, binary) in forwardBinaries.enumerated() {
    let memory = rounds.map { $0.forwarded[index] }, forwardRates = memory.map(\.load.perSecond)
    print(String(format: "%@: %.0f %@/s; ratio %.3f (rounds %@; goal ≥ 0.8)", binary, median(forwardRates), rowName, median(zip(forwardRates, copyRates).map(/)),
                 zip(forwardRates, copyRates).map { String(format: "%.3f", $0 / $1) }.joined(separator: ", ")))
    print("  median µs of CPU per reading: " + ["cuffd", "dbus-daemon", "cuff-forward", "PostgreSQL"].map { medianCPU(memory.map(\.load), $0) }.joined(separator: ", "))
    print("  cuff-forward RSS, medians: peak \(medianMiB(memory.map(\.peakKiB))), caught up \(medianMiB(memory.map(\.caughtUpKiB))), "
          + "idle 6 s later \(medianMiB(memory.map(\.idleKiB)))")
}
