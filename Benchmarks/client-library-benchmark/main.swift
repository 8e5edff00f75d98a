// cuff-forward's PostgreSQL client library, measured side by side (docs/forwarding.md, "Why libpq, not postgres-nio"):
// the two programs of Benchmarks/postgres-client-comparison — one on cuff-forward's own libpq wrapper, one on
// vapor/postgres-nio — each built clean, then run against one PostgreSQL of the run's own with TLS (verify-full) and
// SCRAM: connect, create the table, upsert a batch of 1 000 readings in a transaction, idle; then 999 batches more,
// idle again. Printed as a table: what each costs to build and ship, and what it holds and does while idle.
//
// Run (root: PostgreSQL runs as nobody): swift build -c release --product client-library-benchmark &&
//     .build/release/client-library-benchmark [--reuse-builds]
// `--reuse-builds` keeps the builds of an earlier run (no build times then).
import BenchmarkSupport
import DBusTestSupport
import Foundation

let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("postgres-client-comparison")
let reuseBuilds = CommandLine.arguments.contains("--reuse-builds")
let programs = [(product: "libpq-idle", label: "libpq (cuff-forward's wrapper)"), (product: "postgres-nio-idle", label: "postgres-nio 1.33.2")]

/// A clean release build of `product` as `make` builds cuff-forward (static Swift standard library), in a scratch
/// folder of its own: dependencies fetched first from the local mirror (not timed), then the build timed.
func build(_ product: String) throws -> (binary: String, seconds: Double?, cpuSeconds: Double?) {
    let scratch = package.appendingPathComponent(".build-\(product)").path
    let swift = ["build", "-c", "release", "--static-swift-stdlib", "--package-path", package.path, "--scratch-path", scratch, "--product", product]
    let binary = scratch + "/release/" + product
    if reuseBuilds, FileManager.default.fileExists(atPath: binary) { return (binary, nil, nil) }
    try? FileManager.default.removeItem(atPath: scratch)
    _ = try timed("/usr/bin/env", ["swift", "package", "resolve", "--package-path", package.path, "--scratch-path", scratch])
    let (seconds, cpuSeconds, _) = try timed("/usr/bin/env", ["swift"] + swift)
    return (binary, seconds, cpuSeconds)
}

/// The stripped size of `binary`, and what the shared objects it loads (ldd) weigh on disk beyond glibc's own.
func sizes(_ binary: String) throws -> (strippedBytes: Int, sharedObjects: [String], sharedBytes: Int) {
    let stripped = binary + ".stripped"
    guard try ExternalCommand.run("strip", ["-o", stripped, binary]).status == 0 else { fatalError("strip \(binary)") }
    let strippedBytes = try FileManager.default.attributesOfItem(atPath: stripped)[.size] as! Int
    let glibc = ["libc.so", "libm.so", "ld-linux", "linux-vdso", "libpthread.so", "libdl.so", "librt.so", "libresolv.so"]
    let objects = try ExternalCommand.run("ldd", [binary]).standardOutput.split(separator: "\n").compactMap { line -> String? in
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 3, fields[1] == "=>", !glibc.contains(where: { fields[0].hasPrefix($0) }) else { return nil }
        return URL(fileURLWithPath: String(fields[2])).resolvingSymlinksInPath().path
    }
    let sharedBytes = try objects.reduce(0) { try $0 + (FileManager.default.attributesOfItem(atPath: $1)[.size] as! Int) }
    return (strippedBytes, objects, sharedBytes)
}

/// One of the programs running against the server, driven by signals (Workload.serve).
final class RunningClient {
    let process: ChildProcess
    private let output: FileHandle

    init(_ binary: String, server: PostgresServer, password: String, table: String) throws {
        evictFromPageCache(binary)
        (process, output) = try ExternalCommand.start(binary, [
            "localhost", String(server.port), "gateway", password, "health", server.certificates!.authority, table,
        ])
        try waitUntilReady(1)
    }

    /// Blocks until the program says `ready BATCHES`: it has committed them and sleeps.
    func waitUntilReady(_ batches: Int) throws {
        let line = String(decoding: output.availableData, as: UTF8.self)
        guard line.contains("ready \(batches)") else { throw TestFailure("expected ready \(batches), read \(line.debugDescription)") }
    }

    /// Upserts 999 batches more; the seconds they took.
    func runMoreBatches() throws -> Double {
        let started = ContinuousClock.now
        kill(process.pid, SIGUSR1)
        try waitUntilReady(1_000)
        return seconds(since: started)
    }
}

/// What a sleeping process holds and does: VmRSS, its private dirty pages and its threads after `settle` seconds,
/// then the context switches of each thread over 30 s (a thread woken for anything is switched to).
struct IdleFigures {
    let rssKiB: Int, privateDirtyKiB: Int, peakKiB: Int, threads: Int
    let wakeupsPerSecond: Double
    let wokenThreads: [String]
}

/// Measures every process in `pids` over the same 30 s.
func measureIdle(_ pids: [pid_t], settle: Double = 6) throws -> [IdleFigures] {
    Thread.sleep(forTimeInterval: settle)
    let memory = pids.map { (kibibytes("VmRSS", of: $0), kibibytes("Private_Dirty", of: $0, in: "smaps_rollup"), peakKiB($0)) }
    let before = try pids.map { try ThreadSwitches(of: $0) }
    Thread.sleep(forTimeInterval: 30)
    let after = try pids.map { try ThreadSwitches(of: $0) }
    return pids.indices.map { index in
        let woken = after[index].woken(since: before[index])
        return IdleFigures(
            rssKiB: memory[index].0, privateDirtyKiB: memory[index].1, peakKiB: memory[index].2, threads: after[index].counts.count,
            wakeupsPerSecond: Double(woken.values.reduce(0, +)) / 30,
            wokenThreads: woken.map { "\(after[index].names[$0.key] ?? "?"): \($0.value)" })
    }
}

func loadAverage() -> String { ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ") }

print("load average before the builds: \(loadAverage())")
let builds = try programs.map { try build($0.product) }
let shipped = try builds.map { try sizes($0.binary) }

print("load average before the runs: \(loadAverage())")
let server = try PostgresServer(tls: true)
defer { server.remove() }
let password = "comparison-gateway"
try server.psql("CREATE ROLE gateway LOGIN PASSWORD '\(password)'")
try server.psql("CREATE DATABASE health OWNER gateway")
let tables = ["readings_libpq", "readings_nio"]
let clients = try zip(builds, tables).map { try RunningClient($0.binary, server: server, password: password, table: $1) }
defer { clients.forEach { $0.process.terminate() } }
let afterOne = try measureIdle(clients.map(\.process.pid))
let batchSeconds = try clients.map { try $0.runMoreBatches() }
let afterThousand = try measureIdle(clients.map(\.process.pid))
for table in tables {
    let rows = try server.psql("SELECT count(*) FROM \(table)", database: "health")
    guard rows == ["1000000"] else { fatalError("\(table) holds \(rows), not 1 000 000 rows") }
}
let encrypted = try server.psql("SELECT count(*) FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) WHERE ssl AND usename = 'gateway'")
guard encrypted == ["2"] else { fatalError("\(encrypted) of the two sessions are encrypted") }
print("load average after the runs: \(loadAverage())")

func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
func ratio(_ nio: Double, _ libpq: Double) -> String { libpq == 0 ? (nio == 0 ? "—" : "∞") : String(format: "%.2f", nio / libpq) }
func row(_ name: String, _ values: [Double], _ format: (Double) -> String) -> (String, String, String, String) {
    (name, format(values[0]), format(values[1]), ratio(values[1], values[0]))
}
var rows: [(String, String, String, String)] = []
if let libpqSeconds = builds[0].seconds, let nioSeconds = builds[1].seconds {
    rows.append(row("clean release build (static stdlib), wall", [libpqSeconds, nioSeconds]) { String(format: "%.0f s", $0) })
    rows.append(row("clean release build, CPU", [builds[0].cpuSeconds!, builds[1].cpuSeconds!]) { String(format: "%.0f s", $0) })
}
rows.append(row("binary, stripped", shipped.map { Double($0.strippedBytes) }) { megabytes(Int($0)) })
rows.append(row("shared objects it loads beyond glibc, on disk", shipped.map { Double($0.sharedBytes) }) { megabytes(Int($0)) })
rows.append(row("shared objects it loads beyond glibc, count", shipped.map { Double($0.sharedObjects.count) }) { String(Int($0)) })
rows.append(row("threads, idle", afterOne.map { Double($0.threads) }) { String(Int($0)) })
rows.append(row("idle RSS after connect + 1 batch", afterOne.map { Double($0.rssKiB) }) { mebibytes(Int($0)) })
rows.append(row("idle Private_Dirty after connect + 1 batch", afterOne.map { Double($0.privateDirtyKiB) }) { mebibytes(Int($0)) })
rows.append(row("idle RSS after 1 000 batches", afterThousand.map { Double($0.rssKiB) }) { mebibytes(Int($0)) })
rows.append(row("peak RSS (VmHWM) over the 1 000 batches", afterThousand.map { Double($0.peakKiB) }) { mebibytes(Int($0)) })
rows.append(row("idle Private_Dirty after 1 000 batches", afterThousand.map { Double($0.privateDirtyKiB) }) { mebibytes(Int($0)) })
rows.append(row("wakeups/s idle after 1 batch, 30 s, all threads", afterOne.map(\.wakeupsPerSecond)) { String(format: "%.2f", $0) })
rows.append(row("wakeups/s idle after 1 000 batches, 30 s, all threads", afterThousand.map(\.wakeupsPerSecond)) { String(format: "%.2f", $0) })
rows.append(row("999 batches of 1 000 readings", batchSeconds) { String(format: "%.1f s", $0) })

print("| figure | \(programs[0].label) | \(programs[1].label) | postgres-nio ÷ libpq |")
print("|---|---|---|---|")
for (name, libpq, nio, quotient) in rows { print("| \(name) | \(libpq) | \(nio) | \(quotient) |") }
for (index, program) in programs.enumerated() {
    let woken = afterOne[index].wokenThreads + afterThousand[index].wokenThreads
    print("\(program.product): loads \(shipped[index].sharedObjects.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: " "))")
    if !woken.isEmpty { print("\(program.product): threads woken while idle: \(woken.joined(separator: ", "))") }
}
