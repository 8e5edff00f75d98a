// Figures for the daemon: cuffd's start → READY, its idle RSS and wakeups per second (as a process, the
// release build `make` installs), and indication → committed latency through the chain on cuff-sim
// (cuff-sim's PropertiesChanged → dbus-daemon → BlueZ client → Gateway → session → HealthStore commit with
// synchronous=FULL), measured in one process with one clock.
//
// Run: make && swift run -c release daemon-benchmark [CUFFD_BINARY] [READINGS]
import BenchmarkSupport
import BlueZ
import CuffSimulation
import DBus
import DBusTestSupport
import Foundation
import Gateway
import HealthStore
import Daemon
import MainLoop
import Synchronization

let arguments = CommandLine.arguments
let cuffd = arguments.count > 1 ? arguments[1] : ".build/static/release/cuffd"
let readingCount = arguments.count > 2 ? Int(arguments[2]) ?? 500 : 500

func percentile(_ values: [Duration], _ p: Double) -> Duration {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func milliseconds(_ duration: Duration) -> String {
    String(format: "%.2f ms", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
}

/// Indication → committed, `count` times.
func measureLatency(count: Int) async throws -> [Duration] {
    let bus = try PrivateBus()
    let sent = Mutex<[String: ContinuousClock.Instant]>([:])
    let emulator = BluezEmulator(scenario: try Scenario.parse(indicatingCuffScenario(count: count, start: 0.5, interval: 0.02, bonded: true)), bus: .address(bus.address)) { line in
        guard let range = line.range(of: "0x2A35 indicated: ") else { return }
        let payload = line[range.upperBound...].replacingOccurrences(of: " ", with: "")
        sent.withLock { $0[payload] = .now }
    }
    try await emulator.start()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-benchmark-\(UUID().uuidString.prefix(6))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try HealthStore.open(path: directory.appendingPathComponent("health.sqlite").path)
    let connection = try DBusConnection.open(.address(bus.address), label: "benchmark")
    let gateway = CuffGateway(bluetooth: BluezClient(connection: connection), store: HealthStoreReadingStore(store: store))
    let events = await gateway.events()
    try await gateway.start()
    var latencies: [Duration] = []
    for await event in events {
        guard case .session(_, .readingStored(let reading, .stored)) = event else { continue }
        let committed = ContinuousClock.now
        let payload = reading.payload.map { String(format: "%02X", $0) }.joined()
        if let start = sent.withLock({ $0[payload] }) { latencies.append(committed - start) }
        if latencies.count == count { break }
    }
    await gateway.stop()
    connection.close()
    await emulator.stop()
    return latencies
}

/// Start → READY (the binary read from disk), idle RSS, wakeups per second of the cuffd binary, beside cuff-sim on a private bus.
func measureProcess(_ binary: String) throws -> (ready: Duration, rssKiB: Int, wakeupsPerSecond: Double) {
    let bus = try PrivateBus()
    let directory = bus.directory
    let scenario = directory.appendingPathComponent("idle.json")
    try Data(#"{"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "BP-1", "services": ["1810"], "bonded": true, "timeline": [{"after": 0.1, "disconnect": true}]}]}"#.utf8).write(to: scenario)
    let simulator = try ChildProcess(
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cuff-sim").path,
        ["--scenario", scenario.path, "--bus", bus.address])
    Thread.sleep(forTimeInterval: 1)
    // The notify socket is read until READY=1 and then closed, so later STATUS= lines fail at once instead
    // of filling an unread socket.
    evictFromPageCache(binary)
    var notify: DatagramReceiver? = try DatagramReceiver()
    let clock = ContinuousClock()
    let started = clock.now
    let daemon = try ChildProcess(
        binary, ["--bus", bus.address, "--store", directory.appendingPathComponent("health.sqlite").path, "--config", "/nonexistent"],
        standardError: .discard, environment: ["NOTIFY_SOCKET": notify!.path])
    var ready: Duration?
    while ready == nil, let datagram = notify?.receiveText() {
        if datagram.contains("READY=1") { ready = clock.now - started }
    }
    notify = nil
    guard let ready else { fatalError("no READY=1 from \(binary)") }
    Thread.sleep(forTimeInterval: 5)  // let start-up settle
    func status(_ key: String, of task: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(daemon.pid)/task/\(task)/status", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.hasPrefix(key + ":") }.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) } ?? 0
    }
    /// Context switches per thread: threads come and go (Dispatch's pool), so a sum over the process could
    /// fall; a thread seen in both samples counts its difference, a new one all of its switches.
    func switches() -> [String: Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/task")) ?? []
        return Dictionary(uniqueKeysWithValues: tasks.map { ($0, status("voluntary_ctxt_switches", of: $0) + status("nonvoluntary_ctxt_switches", of: $0)) })
    }
    let rss = status("VmRSS", of: String(daemon.pid))
    let before = switches()
    Thread.sleep(forTimeInterval: 30)
    let after = switches()
    let woken = after.reduce(0) { $0 + $1.value - (before[$1.key] ?? 0) }
    let wakeups = Double(woken) / 30
    daemon.terminate()
    simulator.terminate()
    return (ready, rss, wakeups)
}

let process = try measureProcess(cuffd)
print("cuffd \(cuffd): start → READY \(milliseconds(process.ready)); idle RSS \(process.rssKiB / 1024).\(process.rssKiB % 1024 * 10 / 1024) MiB; \(String(format: "%.2f", process.wakeupsPerSecond)) context switches/s while idle (30 s)")
// The chain as cuffd runs it, every job on one MainLoop thread (docs/architecture.md), and on Swift's default
// libdispatch executors for comparison, alternately in the same run. The loop runs for the rest of the process, as
// in cuffd: stopped between rounds, it once left a later round waiting for ever (jobs still bound to it never ran).
let loop = MainLoop()
Thread { loop.run() }.start()
for round in 1...2 {
    let onDispatch = try await measureLatency(count: readingCount)
    let onMainLoop = try await withTaskExecutorPreference(loop.taskExecutor) { try await measureLatency(count: readingCount) }
    for (executor, latencies) in [("libdispatch", onDispatch), ("MainLoop", onMainLoop)] {
        print("round \(round), \(executor): indication → committed over cuff-sim, \(latencies.count) readings: p50 \(milliseconds(percentile(latencies, 0.5))), p99 \(milliseconds(percentile(latencies, 0.99))), max \(milliseconds(latencies.max()!))")
    }
}
