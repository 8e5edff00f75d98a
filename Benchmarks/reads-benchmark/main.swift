// Reads beside commits (docs/dbus-api.md, "Reads"): cuffd on a store of a million readings, a cuff indicating a
// reading every second, and clients hammering `Statistics` and `Readings` — half of them uids without a grant, half
// with one, each with several calls in flight on its connection, as other users would. Printed: indication →
// committed (p50, p99, max) with no client, then with the clients, in the same run; `Statistics` and root's
// `Readings limit 1` as root while they hammer; the calls the clients made, were answered and were refused.
//
// One clock, this process's: the cuff is cuff-sim's emulator in this process, which stamps each indication as it
// sends it; "committed" is the `ReadingStored` signal cuffd sends once the store's commit has returned (one cuff,
// one reading at a time: the nth signal is the nth indication). The clients are this program again (`hammer`),
// started through setpriv(1) as uids 61001… and 61101… (throw-away accounts), in group `users`, which cuffd is told is
// its reader group;
// root grants the second half `bloodPressure` read. Needs root, like the tests that change uids.
//
// Run: swift build -c release && swift run -c release reads-benchmark [READINGS] [CLIENTS] [CALLS_IN_FLIGHT] [MEASURED]
//      (1000000, 20 of each kind, 8 per client, 120 readings with clients and 60 without); READS_BENCHMARK_STORE and
//      READS_BENCHMARK_CUFFD_NICE below.
import BenchmarkSupport
import CuffSimulation
import DBus
import DBusTestSupport
import Foundation
import Synchronization

let arguments = CommandLine.arguments
let gateway = ("org.cuffd.Gateway1", DBusObjectPath("/org/cuffd/Gateway1"), "org.cuffd.Gateway1")

/// The p-quantile of `values`.
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func milliseconds(_ seconds: [Double]) -> String {
    String(format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms", percentile(seconds, 0.5) * 1000, percentile(seconds, 0.99) * 1000, seconds.max()! * 1000)
}

func elapsed(_ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant = .now) -> Double {
    let d = to - from
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

/// `hammer BUS SECONDS IN_FLIGHT`: one client. `IN_FLIGHT` loops on one connection, each calling `Statistics` and
/// `Readings limit 1000` in turn until SECONDS have passed; prints `answered refused failed` and the last failure.
func hammer(bus: String, seconds: Double, inFlight: Int) async throws {
    let connection = try DBusConnection.open(.address(bus), label: "hammer")
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    typealias Counts = (answered: Int, refused: Int, failed: Int, last: String)
    let final = await withTaskGroup(of: Counts.self) { group in
        for loop in 0 ..< inFlight {
            group.addTask {
                var counts: Counts = (0, 0, 0, "")
                var n = loop
                while ContinuousClock.now < deadline {
                    let statistics = n % 2 == 0
                    let filter: [String: DBusVariant] = statistics ? [:] : ["limit": DBusVariant(UInt32(1000))]
                    do {
                        _ = try await connection.call(gateway.0, gateway.1, gateway.2, statistics ? "Statistics" : "Readings", [filter.dbusValue])
                        counts.answered += 1
                    } catch let error as DBusError where error.name.rawValue == "org.cuffd.Error.LimitsExceeded" {
                        counts.refused += 1
                    } catch {
                        counts.failed += 1
                        counts.last = "\(error)"
                    }
                    n += 1
                }
                return counts
            }
        }
        return await group.reduce(into: (0, 0, 0, "") as Counts) { sum, counts in
            sum = (sum.answered + counts.answered, sum.refused + counts.refused, sum.failed + counts.failed, counts.last.isEmpty ? sum.last : counts.last)
        }
    }
    print("\(final.answered) \(final.refused) \(final.failed) \(final.last)")
    connection.close()
}

if arguments.count > 1, arguments[1] == "hammer" {
    try await hammer(bus: arguments[2], seconds: Double(arguments[3])!, inFlight: Int(arguments[4])!)
    exit(0)
}

let readingCount = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
let clients = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20
let inFlight = arguments.count > 3 ? Int(arguments[3]) ?? 8 : 8
let measured = arguments.count > 4 ? Int(arguments[4]) ?? 120 : 120
let anchorCount = 60, warmUp = 10
let usersGroup: UInt32 = 100

let directory = try temporaryDirectory("reads-benchmark")
defer { try? FileManager.default.removeItem(at: directory) }
let storePath = directory.appendingPathComponent("health.sqlite").path
var started = ContinuousClock.now
// READS_BENCHMARK_STORE=PATH: the store is made once and kept there, and copied from there by the runs after (a
// store of a million readings takes minutes to make on a busy machine).
/// Copies a store with its write-ahead log, if it has one.
func copyStore(_ from: String, _ to: String) throws {
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: from + suffix) {
        try FileManager.default.copyItem(atPath: from + suffix, toPath: to + suffix)
    }
}
let keptStore = ProcessInfo.processInfo.environment["READS_BENCHMARK_STORE"]
if let keptStore, FileManager.default.fileExists(atPath: keptStore) {
    try copyStore(keptStore, storePath)
    print(String(format: "store copied from %@ in %.0f s", keptStore, elapsed(started)))
} else {
    try makeStore(storePath, count: readingCount)
    print(String(format: "store of %d readings made in %.0f s", readingCount, elapsed(started)))
    if let keptStore { try copyStore(storePath, keptStore) }
}

let bus = try PrivateBus()
let indicated = Mutex<[ContinuousClock.Instant]>([])
let total = anchorCount + warmUp + measured
let emulator = BluezEmulator(
    scenario: try Scenario.parse(indicatingCuffScenario(count: total, start: 3, interval: 1, bonded: true)), bus: .address(bus.address)
) { line in
    if line.contains("0x2A35 indicated: ") { indicated.withLock { $0.append(.now) } }
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
try await emulator.start()
let notify = try DatagramReceiver()
// READS_BENCHMARK_CUFFD_NICE=N: cuffd started under nice(1) -n N, as a unit's `Nice=` would start it.
let cuffdNice = ProcessInfo.processInfo.environment["READS_BENCHMARK_CUFFD_NICE"]
let cuffdCommand = [binaries.appendingPathComponent("cuffd").path, "--bus", bus.address, "--store", storePath, "--config", "/nonexistent", "--reader-group", "users"]
let cuffd = try ChildProcess(
    cuffdNice == nil ? cuffdCommand[0] : "/usr/bin/nice", cuffdNice.map { ["-n", $0] + cuffdCommand } ?? Array(cuffdCommand.dropFirst()),
    standardError: .descriptor(open(directory.appendingPathComponent("cuffd.log").path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)), environment: ["NOTIFY_SOCKET": notify.path])
while true {
    guard let datagram = notify.receiveText() else { throw TestFailure("cuffd sent no READY=1") }
    if datagram.contains("READY=1") { break }
}
// Read on as systemd does: cuffd says STATUS= at each reading, and a notify socket nobody drains fills up and blocks it.
Thread.detachNewThread { [notify] in while true { _ = notify.receive(timeout: .seconds(3600)) } }
let root = try DBusConnection.open(.address(bus.address), label: "benchmark")
let stored = try await root.signals(matching: MatchRule(interface: gateway.2, member: "ReadingStored"))
let granted = (0 ..< clients).map { UInt32(61101 + $0) }, ungranted = (0 ..< clients).map { UInt32(61001 + $0) }
/// Runs `command` with /bin/sh; false when it failed.
func shell(_ command: String) throws -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus == 0
}
// dbus-daemon lets a uid connect only if it names a user (it looks up the uid's groups): throw-away accounts, removed
// at the end.
let accounts = (ungranted + granted).map { "cuffd-reads-\($0)" }
for (uid, name) in zip(ungranted + granted, accounts) {
    guard try shell("id -u \(name) >/dev/null 2>&1 || useradd -M -N -u \(uid) -g \(usersGroup) -s /usr/sbin/nologin \(name)") else {
        throw TestFailure("cannot add the account \(name)")
    }
}
defer { _ = try? shell(accounts.map { "userdel \($0)" }.joined(separator: "; ")) }
for uid in granted { _ = try await root.call(gateway.0, gateway.1, gateway.2, "Grant", [.uint32(uid), .string("bloodPressure"), .string("read")]) }

/// Seconds each of `count` root calls of `member` with `filter` took, one after another.
func rootCalls(_ member: String, _ filter: [String: DBusVariant], count: Int) async throws -> [Double] {
    var times: [Double] = []
    for _ in 0 ..< count {
        let start = ContinuousClock.now
        _ = try await root.call(gateway.0, gateway.1, gateway.2, member, [filter.dbusValue], timeout: .seconds(120))
        times.append(elapsed(start))
    }
    return times
}

let idleStatistics = try await rootCalls("Statistics", [:], count: 20)
// The bus alone: a round trip to dbus-daemon itself (GetId) five times a second, through the whole run — what any
// reading's way from the cuff to cuffd and back to this process, twice through the bus, cannot go below.
let busTrips = Mutex<[(at: ContinuousClock.Instant, seconds: Double)]>([])
let busPinger = Task {
    while !Task.isCancelled {
        let start = ContinuousClock.now
        _ = try? await root.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId")
        busTrips.withLock { $0.append((start, elapsed(start))) }
        try? await Task.sleep(for: .milliseconds(200))
    }
}
// Each signal stamped as it arrives, whatever the loop below is waiting for.
let committedAt = Mutex<[ContinuousClock.Instant]>([])
let (progress, progressed) = AsyncStream<Int>.makeStream()
Task {
    for await _ in stored {
        let count = committedAt.withLock { $0.append(.now); return $0.count }
        progressed.yield(count)
        if count == total { break }
    }
    progressed.finish()
}
var hammers: [(ChildProcess, URL)] = []
var duringStatistics: [Double] = [], duringReadings: [Double] = []
var hammerStart = ContinuousClock.now
for await count in progress {
    if count == anchorCount {
        // The clients start: each runs until the last reading should be in, and a little longer.
        hammerStart = .now
        let seconds = Double(warmUp + measured + 5)
        for uid in ungranted + granted {
            let output = directory.appendingPathComponent("hammer-\(uid)")
            let descriptor = open(output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
            // What a client says when it fails (it cannot reach the bus, say), for the message below.
            let errors = open(output.path + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o666)
            defer {
                close(descriptor)
                close(errors)
            }
            hammers.append((try ChildProcess(
                "/usr/bin/setpriv",
                ["--reuid=\(uid)", "--regid=\(usersGroup)", "--groups=\(usersGroup)", CommandLine.arguments[0], "hammer", bus.address, "\(seconds)", "\(inFlight)"],
                standardOutput: .descriptor(descriptor), standardError: .descriptor(errors)), output))
        }
    }
    if count > anchorCount + warmUp, count % 10 == 0 {
        duringStatistics += try await rootCalls("Statistics", [:], count: 1)
        duringReadings += try await rootCalls("Readings", ["limit": DBusVariant(UInt32(1))], count: 1)
    }
}
let committed = committedAt.withLock { $0 }
let hammerSeconds = elapsed(hammerStart)
busPinger.cancel()
let trips = busTrips.withLock { $0 }
for (process, _) in hammers { process.waitForExit() }
let sent = indicated.withLock { $0 }
guard sent.count == total else { throw TestFailure("\(sent.count) indications for \(total) readings stored") }
let latencies = zip(sent, committed).map { elapsed($0, $1) }
let anchor = Array(latencies.prefix(anchorCount)), hammered = Array(latencies.suffix(measured))
var answered = [0, 0], refused = [0, 0], failed = [0, 0]
var lastFailure = ""
for (index, (_, output)) in hammers.enumerated() {
    let fields = (try String(contentsOf: output, encoding: .utf8)).split(separator: " ", maxSplits: 3)
    guard fields.count >= 3 else {
        throw TestFailure("client \(index) printed nothing: \((try? String(contentsOfFile: output.path + ".err", encoding: .utf8)) ?? "")")
    }
    let kind = index < clients ? 0 : 1
    answered[kind] += Int(fields[0])!
    refused[kind] += Int(fields[1])!
    failed[kind] += Int(fields[2])!
    if fields.count == 4, !fields[3].isEmpty { lastFailure = String(fields[3]).trimmingCharacters(in: .whitespacesAndNewlines) }
}
print("cuffd on \(readingCount) readings, a reading indicated every second\(cuffdNice.map { ", cuffd at nice \($0)" } ?? ""):")
print("  indication → committed, no clients (anchor), \(anchor.count) readings: \(milliseconds(anchor))")
print("  indication → committed, \(clients) ungranted + \(clients) granted clients × \(inFlight) calls in flight, \(hammered.count) readings: \(milliseconds(hammered))")
print("  a round trip to dbus-daemon, no clients: \(milliseconds(trips.filter { $0.at < hammerStart }.map(\.seconds))); with the clients: \(milliseconds(trips.filter { $0.at >= hammerStart }.map(\.seconds)))")
// Where the tail is: the slowest readings and when they came (the nth of the measured ones, a second apart).
let slowest = hammered.enumerated().sorted { $0.element > $1.element }.prefix(5)
print("  slowest with the clients: " + slowest.map { String(format: "%.1f ms (#%d)", $0.element * 1000, $0.offset + 1) }.joined(separator: ", "))
print("  root's Statistics, idle: \(milliseconds(idleStatistics)); while the clients hammer: \(milliseconds(duringStatistics))")
print("  root's Readings limit 1 while the clients hammer: \(milliseconds(duringReadings))")
for (kind, name) in ["ungranted", "granted"].enumerated() {
    print(String(format: "  %@ clients: %.0f answered/s, %.0f refused (LimitsExceeded)/s, %d failed",
                 name, Double(answered[kind]) / hammerSeconds, Double(refused[kind]) / hammerSeconds, failed[kind]))
}
if !lastFailure.isEmpty { print("  last failure: \(lastFailure)") }
print(String(format: "  cuffd's CPU over the run: %.1f s", cpuSeconds(cuffd.pid)))
cuffd.terminate()
await emulator.stop()
// The program ends without releasing it: the bus's dbus-daemon would outlive the run.
bus.stop()
