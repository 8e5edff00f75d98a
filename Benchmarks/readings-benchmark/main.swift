// Whether cuffd's memory stays bounded whatever its store holds (docs/dbus-api.md, Paging): `cuffctl readings
// --json` reads every reading of a store through cuffd a page at a time, for a small store and a large one in
// the same run; cuffd's and cuffctl's peak resident memory (VmHWM) and the readings per second are printed.
// Then `cuffctl export --store` (CSV and FHIR) of the same files beside `sqlite3 -csv` dumping the store's
// sample rows, in readings per second, with the export's peak memory (docs/export.md).
// First, heart rate: a day of a strap at 1 Hz through `cuff-sim replay`, and cuffd's CPU while a strap streams at
// 1 Hz (docs/gateway.md, "Heart rate"); then the CPU `cuffctl report` takes over ten years of twice-daily
// readings (docs/report.md).
//
// Run: swift build -c release && swift run -c release readings-benchmark [LARGE] [SMALL]   (1000000 and 1000)
import BenchmarkSupport
import DBusTestSupport
import Foundation
import HealthStore

let arguments = CommandLine.arguments
let large = arguments.count > 1 ? Int(arguments[1]) ?? 1_000_000 : 1_000_000
let small = arguments.count > 2 ? Int(arguments[2]) ?? 1_000 : 1_000

struct Figures {
    let count: Int
    let seconds: Double
    let cuffdIdleKiB: Int
    let cuffdPeakKiB: Int
    let cuffctlPeakKiB: Int
}

/// cuffd on a store of `count` readings; `cuffctl readings --json` through all of it.
func measure(count: Int) throws -> Figures {
    let directory = try temporaryDirectory("readings-benchmark")
    defer { try? FileManager.default.removeItem(at: directory) }
    let storePath = directory.appendingPathComponent("health.sqlite").path
    try makeStore(storePath, count: count)
    return try withCuffd(storePath: storePath) { bus, daemon in
        let idle = peakKiB(daemon.pid)
        let client = try timed(binaries.appendingPathComponent("cuffctl").path, ["readings", "--json", "--bus", bus.address])
        return Figures(count: count, seconds: client.seconds, cuffdIdleKiB: idle, cuffdPeakKiB: peakKiB(daemon.pid), cuffctlPeakKiB: client.peakKiB)
    }
}

/// `cuffctl export --store` against `sqlite3 -csv` on one store file.
func measureExport(count: Int) throws {
    let directory = try temporaryDirectory("export-benchmark")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("health.sqlite").path
    try makeStore(path, count: count)
    let cuffctl = binaries.appendingPathComponent("cuffctl").path
    let dump = try timed("/usr/bin/sqlite3", ["-csv", path, "SELECT start_at, value, metadata, sync_identifier FROM sample ORDER BY start_at"])
    let csv = try timed(cuffctl, ["export", "--format", "csv", "--store", path])
    let fhir = try timed(cuffctl, ["export", "--format", "fhir", "--store", path])
    func rate(_ seconds: Double) -> Int { Int(Double(count) / seconds) }
    print("export of \(count) readings, one run: sqlite3 -csv \(rate(dump.seconds))/s; CSV \(rate(csv.seconds))/s (\(String(format: "%.2f", dump.seconds / csv.seconds))× sqlite3), peak \(mebibytes(csv.peakKiB)); FHIR \(rate(fhir.seconds))/s (\(String(format: "%.2f", dump.seconds / fhir.seconds))×), peak \(mebibytes(fhir.peakKiB))")
}

/// `cuffctl report` over ten years of twice-daily readings (≈ 7 300) through cuffd: the CPU cuffctl used.
func measureReport() throws {
    let directory = try temporaryDirectory("report-benchmark")
    defer { try? FileManager.default.removeItem(at: directory) }
    let storePath = directory.appendingPathComponent("health.sqlite").path
    let count = 7_305
    try makeStore(storePath, count: count, spacing: 12 * 3600)
    let report = try withCuffd(storePath: storePath) { bus, _ in
        try timed(binaries.appendingPathComponent("cuffctl").path, ["report", "--since", "2020-01-01", "--until", "2031-01-01", "--bus", bus.address])
    }
    print(String(format: "report of %d readings: %.0f ms of CPU (%.0f ms elapsed), peak %@", count, report.cpuSeconds * 1000, report.seconds * 1000, mebibytes(report.peakKiB)))
}

/// A heart-rate strap's scenario: `count` values `interval` seconds apart, each with an RR interval.
func strapScenario(count: Int, interval: Double) -> Data {
    let steps = (0 ..< count).map { n -> String in
        let rate = 60 + n % 40
        let rr = Int((60 / Double(rate) * 1024).rounded())
        let hex = [0x16, rate, rr & 0xFF, rr >> 8].map { String(format: "%02X", $0) }.joined(separator: " ")
        return #"{"after": \#(0.5 + Double(n) * interval), "notify": "2A37", "hex": "\#(hex)"}"#
    }
    return Data(("""
        {"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": [{"address": "E8:3C:A1:07:6D:21", "name": "HRM-1", "services": ["180D", "180A"],
         "pairing": "justWorks", "deviceInformation": {"manufacturer": "cuffd project", "model": "SIM-HR", "serial": "0007"},
         "timeline": [
        """ + steps.joined(separator: ",\n") + "]}]}").utf8)
}

/// A day of a strap at 1 Hz (86 400 values) through `cuff-sim replay`; then cuffd's CPU while a strap streams at
/// 1 Hz over cuff-sim, beside its CPU idle before the strap was paired.
func measureHeartRate() throws {
    let directory = try temporaryDirectory("heart-rate-benchmark")
    defer { try? FileManager.default.removeItem(at: directory) }
    let day = directory.appendingPathComponent("strap-day.json")
    try strapScenario(count: 86_400, interval: 1).write(to: day)
    let replay = try timed(binaries.appendingPathComponent("cuff-sim").path, ["replay", day.path, "--store", directory.appendingPathComponent("replay.sqlite").path])
    print(String(format: "replay of 86 400 heart-rate values: %.1f s (%.1f s of CPU), peak %@", replay.seconds, replay.cpuSeconds, mebibytes(replay.peakKiB)))

    let window = 30.0
    let (idle, streaming) = try withCuffd(storePath: directory.appendingPathComponent("health.sqlite").path, scenario: strapScenario(count: 120, interval: 1)) { bus, daemon in
        let idleStart = cpuSeconds(daemon.pid)
        Thread.sleep(forTimeInterval: 10)
        let idle = (cpuSeconds(daemon.pid) - idleStart) / 10
        _ = try timed(binaries.appendingPathComponent("cuffctl").path, ["pair", "E8:3C:A1:07:6D:21", "--bus", bus.address])
        Thread.sleep(forTimeInterval: 5)
        let start = cpuSeconds(daemon.pid)
        Thread.sleep(forTimeInterval: window)
        return (idle, (cpuSeconds(daemon.pid) - start) / window)
    }
    print(String(format: "cuffd CPU while a strap streams at 1 Hz: %.2f %% of a core (idle before: %.2f %%)", streaming * 100, idle * 100))
}

/// cuffd's CPU (user + system, from /proc) to hand a client its whole store through the change feed: as `Changes`
/// (a dictionary per reading, pages of 1 000) and as `ChangeColumns` (columns, pages of 10 000), read by
/// follow-feed.py (dbus-fast) in the same run.
func measureFeed(count: Int) throws {
    let directory = try temporaryDirectory("feed-benchmark")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("health.sqlite").path
    try makeStore(path, count: count)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("follow-feed.py").path
    var figures: [String] = []
    for (method, limit) in [("Changes", 1000), ("ChangeColumns", 10_000)] {
        let cpu = try withCuffd(storePath: path) { bus, daemon in
            let start = cpuSeconds(daemon.pid)
            let client = try ExternalCommand.run("/usr/bin/env", ["python3", script, bus.address, method, String(limit)])
            guard client.status == 0, client.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == String(count) else {
                fatalError("follow-feed.py \(method): \(client.standardError)\(client.standardOutput)")
            }
            return cpuSeconds(daemon.pid) - start
        }
        figures.append(String(format: "%@ %.2f s (%.1f µs a reading)", method, cpu, cpu / Double(count) * 1e6))
    }
    print("cuffd's CPU to hand out \(count) readings through the change feed: " + figures.joined(separator: "; "))
}

try measureFeed(count: 100_000)
try measureHeartRate()
try measureReport()
try measureExport(count: small)
try measureExport(count: large)
let figures = [try measure(count: small), try measure(count: large)]
for figure in figures {
    print("\(figure.count) readings: \(Int(Double(figure.count) / figure.seconds)) readings/s through cuffd; cuffd idle \(mebibytes(figure.cuffdIdleKiB)), peak \(mebibytes(figure.cuffdPeakKiB)); cuffctl peak \(mebibytes(figure.cuffctlPeakKiB))")
}
let (first, last) = (figures[0], figures[1])
print(String(format: "peak RSS, %d readings ÷ %d readings: cuffd %.2f, cuffctl %.2f", last.count, first.count,
             Double(last.cuffdPeakKiB) / Double(first.cuffdPeakKiB), Double(last.cuffctlPeakKiB) / Double(first.cuffctlPeakKiB)))
