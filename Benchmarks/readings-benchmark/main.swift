// Whether cuffd's memory stays bounded whatever its store holds (docs/dbus-api.md, Paging): `cuffctl readings
// --json` reads every reading of a store through cuffd a page at a time, for a small store and a large one in
// the same run; cuffd's and cuffctl's peak resident memory (VmHWM) and the readings per second are printed.
// Then `cuffctl export --store` (CSV and FHIR) of the same files beside `sqlite3 -csv` dumping the store's
// sample rows, in readings per second, with the export's peak memory (docs/export.md).
// First, the CPU `cuffctl report` takes over ten years of twice-daily readings (docs/report.md).
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
