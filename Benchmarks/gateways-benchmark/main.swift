// GATEWAYS gateways forwarding into one PostgreSQL at once (docs/scale-out.md): each its own cuffd on its own store
// beside cuff-sim on its own private bus, and its own cuff-forward logging in as its own role (row security on).
//
// 1. Catch-up: every store holds a backlog of BACKLOG readings; all forwarders start at once, timed until the central
//    table holds every one — aggregate readings/s — beside psql's `\copy` of the same rows into the same table,
//    alternately in ROUNDS rounds (the order swapped every other round), each load from an empty table after a
//    checkpoint, autovacuum off; medians, and the CPU each kind of process spent per reading.
// 2. Live: each gateway's cuff is paired and indicates a reading a second, READINGS of them, phases spread evenly over
//    the second. Each reading's latency runs from its commit on the gateway — the store's `created_at`, read as cuffd's
//    write transaction began — to its row being visible centrally — the moment this process receives the notification
//    a trigger on `readings` sends, which the server delivers only once the forwarder's transaction has committed —,
//    both on this machine's one wall clock.
//
// Run (root: PostgreSQL runs as nobody): swift build -c release && .build/release/gateways-benchmark [GATEWAYS] [BACKLOG] [READINGS] [ROUNDS]
import BenchmarkSupport
import DBusTestSupport
import Foundation
import Synchronization

let numbers = CommandLine.arguments.dropFirst().map { Int($0) ?? 0 }
let gatewayCount = numbers.first ?? 50
let backlogCount = numbers.dropFirst().first ?? 2_000
let liveReadings = numbers.dropFirst(2).first ?? 60
let roundCount = max(1, numbers.dropFirst(3).first ?? 3)

/// Whether `pid` is a backend serving one of the gateways' roles (`postgres: gateway7 health [local] idle`).
func isGatewayBackend(_ pid: pid_t) -> Bool {
    ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").hasPrefix("postgres: gateway")
}

func percentile(_ sorted: [Double], _ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))] }

let folder = try temporaryDirectory("gateways-benchmark")
defer { try? FileManager.default.removeItem(at: folder) }
let server = try PostgresServer()
defer { server.remove() }
let password = "gateway-secret"
let passwordFile = folder.appendingPathComponent("password").path
try password.write(toFile: passwordFile, atomically: false, encoding: .utf8)
try server.psql((1...gatewayCount).map { "CREATE ROLE gateway\($0) LOGIN PASSWORD '\(password)';" }.joined())
try server.psql("CREATE DATABASE health OWNER gateway1")
try withoutAutovacuum(server)
print("load average at start: \(loadAverage())")

let startingAll = ContinuousClock.now
let gateways = try (0..<gatewayCount).map { number in
    try BenchmarkGateway(number: number, of: gatewayCount, backlog: backlogCount, liveReadings: liveReadings, server: server, passwordFile: passwordFile, in: folder)
}
defer { for gateway in gateways { gateway.stop() } }
print(String(format: "%d gateways (stores of %d readings, cuff-sim, cuffd) ready in %.1f s", gatewayCount, backlogCount, seconds(since: startingAll)))

// The first gateway's role owns the database and migrates it; the administrator registers the others.
let migrate = try ExternalCommand.run(binaries.appendingPathComponent("cuff-forward").path, ["--config", gateways[0].configuration, "--migrate"])
guard migrate.status == 0 else { fatalError("--migrate: \(migrate.standardError)") }
let others = gateways.dropFirst()
if !others.isEmpty {
    let roles = others.map(\.role).joined(separator: ", ")
    try server.psql(
        "GRANT SELECT, INSERT, UPDATE ON readings TO \(roles); GRANT SELECT ON gateways, cuff_forward_schema TO \(roles); "
            + "INSERT INTO gateways (name, role) VALUES " + others.map { "('\($0.name)', '\($0.role)')" }.joined(separator: ", "),
        database: "health")
}
let conninfo = "host=\(server.socketDirectory) port=\(server.port) user=postgres password=\(server.superuserPassword) dbname=health"
let central = CentralSession(conninfo)
func centralCount() -> Int { Int(central.value("SELECT count(*) FROM readings")) ?? 0 }

// 1. Catch-up, alternately with the limit.
let backlogTotal = gatewayCount * backlogCount
let busDaemons = gateways.map { gateway -> pid_t in
    guard let pid = busDaemon(gateway.cuffd.bus) else { fatalError("no dbus-daemon for \(gateway.name)") }
    return pid
}

/// Every forwarder started at once from anchor 0 into the emptied table, until the table holds every backlog.
@MainActor func catchUp() throws -> Load {
    try emptyCentralTable(server)
    for gateway in gateways { try? FileManager.default.removeItem(at: gateway.directory.appendingPathComponent("anchor")) }
    let cuffdBefore = gateways.map { cpuSeconds($0.cuffd.daemon.pid) }.reduce(0, +)
    let busBefore = busDaemons.map { cpuSeconds($0) }.reduce(0, +), serverBefore = serverCPUSeconds(server)
    let started = ContinuousClock.now
    for gateway in gateways { try gateway.startForwarder() }
    // count(*) over 100 000 rows costs the server a few ms: asked four times a second, it takes little from the run.
    while centralCount() < backlogTotal {
        guard seconds(since: started) < 1_200 else { fatalError("the backlog was not caught up in 20 minutes") }
        Thread.sleep(forTimeInterval: 0.25)
    }
    let elapsed = seconds(since: started)
    let cpu = [
        "cuffd": gateways.map { cpuSeconds($0.cuffd.daemon.pid) }.reduce(0, +) - cuffdBefore,
        "dbus-daemon": busDaemons.map { cpuSeconds($0) }.reduce(0, +) - busBefore,
        "cuff-forward": gateways.compactMap { $0.forwarder.map { cpuSeconds($0.pid) } }.reduce(0, +),
        "PostgreSQL": serverCPUSeconds(server) - serverBefore,
    ]
    for gateway in gateways { gateway.stopForwarder() }
    return Load(readings: backlogTotal, seconds: elapsed, cpuSeconds: cpu)
}

var anchor: CopyAnchor?
var rounds: [(caughtUp: Load, copied: Load)] = []
for round in 1...roundCount {
    let caughtUp: Load, copied: Load
    if let anchor, round.isMultiple(of: 2) {
        copied = try anchor.load()
        caughtUp = try catchUp()
    } else {
        caughtUp = try catchUp()
        anchor = try anchor ?? CopyAnchor(server, count: backlogTotal)
        copied = try anchor!.load()
    }
    rounds.append((caughtUp, copied))
    print(String(format: "catch-up round %d: %d readings of %d gateways in %.2f s: %.0f readings/s in aggregate; psql \\copy %.0f readings/s; %.3f (load average %@)",
                 round, backlogTotal, gatewayCount, caughtUp.seconds, caughtUp.perSecond, copied.perSecond, caughtUp.perSecond / copied.perSecond, loadAverage()))
    print("  µs of CPU per reading: catch-up \(caughtUp.cpuPerReading(["cuffd", "dbus-daemon", "cuff-forward", "PostgreSQL"])); \\copy \(copied.cpuPerReading(["psql", "PostgreSQL"]))")
}
let catchUpRates = rounds.map(\.caughtUp.perSecond), copyRates = rounds.map(\.copied.perSecond)
print(String(format: "catch-up, median of %d rounds: %.0f readings/s, psql \\copy %.0f readings/s; ratio %.3f (rounds %@; goal ≥ 0.5)",
             rounds.count, median(catchUpRates), median(copyRates), median(zip(catchUpRates, copyRates).map(/)),
             zip(catchUpRates, copyRates).map { String(format: "%.3f", $0 / $1) }.joined(separator: ", ")))
for gateway in gateways { try gateway.startForwarder() }

// 2. Live.
try server.psql("""
    CREATE FUNCTION benchmark_visible() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('visible', NEW.sync_identifier); RETURN NULL; END $$;
    CREATE TRIGGER benchmark_visible AFTER INSERT ON readings FOR EACH ROW EXECUTE FUNCTION benchmark_visible();
    """, database: "health")
let arrivals = Mutex<[String: Date]>([:])
let listener = CentralSession(conninfo)
listener.listen("visible") { identifier, at in arrivals.withLock { $0[identifier] = at } }
let pairings = try gateways.map { try $0.pair() }
for pairing in pairings where pairing.waitForExit() != 0 { fatalError("cuffctl pair failed") }
// CPU from here, when every cuff is paired and only readings arrive, to the last reading's row.
let windowStartCount = centralCount()
let windowStarted = ContinuousClock.now
let gatewayProcesses = gateways.flatMap { [$0.cuffd.daemon.pid, $0.forwarder!.pid] }
let serverCPUBefore = serverCPUSeconds(server)
let gatewayCPUBefore = gatewayProcesses.map { cpuSeconds($0) }.reduce(0, +)
let expected = backlogTotal + gatewayCount * liveReadings
// Until every live reading's notification has come (no count(*) meanwhile, which would load the server).
while arrivals.withLock({ $0.count }) < gatewayCount * liveReadings {
    guard seconds(since: windowStarted) < Double(liveReadings) + 120 else { fatalError("live readings missing: \(centralCount()) of \(expected)") }
    Thread.sleep(forTimeInterval: 0.1)
}
let windowSeconds = seconds(since: windowStarted)
let windowReadings = expected - windowStartCount
let serverCPU = serverCPUSeconds(server) - serverCPUBefore
let gatewayCPU = gatewayProcesses.map { cpuSeconds($0) }.reduce(0, +) - gatewayCPUBefore
guard centralCount() == expected else { fatalError("\(centralCount()) central rows, not \(expected)") }
let liveLoad = loadAverage()
let backends = serverProcesses(server).filter(isGatewayBackend)
let backendPss = backends.map { kibibytes("Pss", of: $0, in: "smaps_rollup") }.reduce(0, +)
let backendPrivate = backends.map { kibibytes("Private_Dirty", of: $0, in: "smaps_rollup") + kibibytes("Private_Clean", of: $0, in: "smaps_rollup") }.reduce(0, +)

var latencies: [Double] = []
var unmatched = 0
let seen = arrivals.withLock { $0 }
for gateway in gateways {
    for (identifier, committed) in try gateway.commitTimes() {
        guard let visible = seen[identifier] else { unmatched += 1; continue }
        latencies.append(visible.timeIntervalSince(committed) * 1000)
    }
}
latencies.sort()
guard latencies.count == gatewayCount * liveReadings, unmatched == 0 else {
    fatalError("\(latencies.count) latencies for \(gatewayCount * liveReadings) live readings, \(unmatched) without a notification")
}
print(String(format: "live: %d gateways × %d readings at 1/s: commit on the gateway → visible centrally p50 %.1f ms, p99 %.1f ms, max %.1f ms (goal p99 ≤ 100 ms; load average %@)",
             gatewayCount, liveReadings, percentile(latencies, 0.5), percentile(latencies, 0.99), latencies.last!, liveLoad))
print(String(format: "live window %.1f s, %d readings: server CPU %.2f ms per reading (%.1f %% of a core), gateways' cuffd + cuff-forward %.2f ms per reading",
             windowSeconds, windowReadings, serverCPU * 1000 / Double(windowReadings), serverCPU / windowSeconds * 100,
             gatewayCPU * 1000 / Double(windowReadings)))
print(String(format: "server memory per gateway session: %.1f MiB PSS, %.1f MiB private (%d backends)",
             Double(backendPss) / 1024 / Double(backends.count), Double(backendPrivate) / 1024 / Double(backends.count), backends.count))
