// store-benchmark: figures for the store on a durable store (WAL, synchronous=FULL) in a temp dir.
//
//   swift run -c release store-benchmark [heart-rate samples, default 1000000] [readings, default 200000]
//
// 1. batched ingest of heart-rate samples over one year (batches of 10 000) → samples/s
// 2. batched ingest of readings (correlation + 3 members + pulse = 5 rows; batches of 1 000)
// 3. commit latency of one correlated reading (saveBloodPressure, one fsync'd commit) → p50/p99
// 4. the last 100 readings (correlations with members), over the 1M-row reading data
// 5. daily statistics (min, max, average, most recent) for a year over the heart-rate samples
// 7. statistics of one person's readings (a read grant naming people: no rollup, that person's samples along
//    sample_type_person_start), against everyone's from the rollup
// 8. corrections: 1 000 readings deleted in one call (`cuffctl delete`), 1 000 revisions one call each (`annotate`), and
//    1 000 revisions in one call (`cuffctl annotate ID…`)
import Foundation
import HealthStore

let arguments = CommandLine.arguments
let heartRateCount = arguments.count > 1 ? Int(arguments[1])! : 1_000_000
let readingCount = arguments.count > 2 ? Int(arguments[2])! : 200_000
let dir = FileManager.default.temporaryDirectory.appendingPathComponent("store-benchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
// STORE_BENCHMARK_KEEP=1 keeps the database for inspection (e.g. with sqlite3 and EXPLAIN QUERY PLAN).
defer {
    if ProcessInfo.processInfo.environment["STORE_BENCHMARK_KEEP"] == "1" { print("kept \(dir.path)") } else { try? FileManager.default.removeItem(at: dir) }
}

let clock = ContinuousClock()
func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
func ms(_ d: Duration) -> String { String(format: "%.3f ms", seconds(d) * 1000) }
func percentile(_ values: [Duration], _ p: Double) -> Duration {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
}

let store = try HealthStore.open(path: dir.appendingPathComponent("bench.sqlite").path)
let daemon = HealthClient.daemon()
let cuff = HealthDevice(identity: "C4F312FFFE53F2C9", deviceType: "bloodPressureMonitor", manufacturer: "Omron", model: "HEM-7155T", serialNumber: "20231100123")
let yearStart = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
let year: TimeInterval = 365 * 86_400

// 1. Heart-rate ingest.
var metadata = HealthMetadata()
metadata.deviceUserID = 1
var ingest = Duration.zero
var written = 0
while written < heartRateCount {
    let n = min(10_000, heartRateCount - written)
    let batch = (0..<n).map { k -> QuantitySample in
        let i = written + k
        let at = yearStart.addingTimeInterval(Double(i) * year / Double(heartRateCount))
        return QuantitySample(type: .heartRate, quantity: HealthQuantity(unit: .countPerMinute, doubleValue: Double(50 + i % 70)), start: at, end: at, device: cuff, metadata: metadata)
    }
    ingest += try clock.measure { _ = try store.save(batch, as: daemon) }
    written += n
}
print("ingest heart rate: \(heartRateCount) samples in \(String(format: "%.2f", seconds(ingest))) s = \(Int(Double(heartRateCount) / seconds(ingest))) samples/s (batches of 10000, device + metadata, excluding sample construction)")

// 2. Reading ingest.
func reading(_ i: Int) -> BloodPressureReading {
    BloodPressureReading(
        systolic: Double(100 + i % 60), diastolic: Double(60 + i % 30), mean: Double(80 + i % 20), pulse: Double(50 + i % 40),
        receivedAt: yearStart.addingTimeInterval(Double(i) * year / Double(readingCount)), timeZoneIdentifier: "Europe/Berlin",
        device: cuff, deviceUserID: UInt8(1 + i % 2), personIdentifier: "patient-000\(1 + i % 2)", measurementStatus: 0, bodyPosition: .sittingDown,
        measurementLocation: .leftUpperArm, syncIdentifier: "C4F312FFFE53F2C9-1-\(i)")
}
var readingIngest = Duration.zero
written = 0
while written < readingCount {
    let n = min(1_000, readingCount - written)
    let batch = (0..<n).map { reading(written + $0) }
    readingIngest += try clock.measure { _ = try store.saveBloodPressure(batch, as: daemon) }
    written += n
}
print("ingest readings: \(readingCount) readings = \(readingCount * 5) rows in \(String(format: "%.2f", seconds(readingIngest))) s = \(Int(Double(readingCount * 5) / seconds(readingIngest))) samples/s (batches of 1000 readings, sync identifiers)")

// 3. One reading's commit latency.
var latencies: [Duration] = []
for i in 0..<500 {
    let r = reading(readingCount + i)
    latencies.append(try clock.measure { _ = try store.saveBloodPressure(r, as: daemon) })
}
print("commit latency, one correlated reading (500 commits, WAL + synchronous=FULL): p50 \(ms(percentile(latencies, 0.5))), p99 \(ms(percentile(latencies, 0.99)))")

// 4. Last 100 readings.
var lastTimes: [Duration] = []
var got = 0
for _ in 0..<50 {
    lastTimes.append(try clock.measure {
        got = try store.correlations(CorrelationQuery(type: .bloodPressure, sort: .startDateDescending, limit: 100), as: daemon).count
    })
}
print("last 100 readings (with members; \(readingCount * 5 + 2500) reading rows + \(heartRateCount) heart-rate rows): p50 \(ms(percentile(lastTimes, 0.5))), p99 \(ms(percentile(lastTimes, 0.99))), got \(got)")

// 5. Daily statistics for a year.
let query = StatisticsCollectionQuery(type: .heartRate, options: .discrete, anchorDate: yearStart, interval: .day, timeZone: TimeZone(identifier: "UTC")!, start: yearStart, end: yearStart.addingTimeInterval(year))
var statTimes: [Duration] = []
var buckets = 0
var counted = 0
for _ in 0..<10 {
    statTimes.append(try clock.measure {
        let result = try store.statisticsCollection(query, as: daemon)
        buckets = result.count
        counted = result.reduce(0) { $0 + $1.all.sampleCount }
    })
}
print("daily statistics for a year (min/max/avg/most recent, \(buckets) buckets over \(counted) heart-rate samples): p50 \(ms(percentile(statTimes, 0.5))), max \(ms(statTimes.max()!))")

// 6. For comparison: the last 500 heart-rate samples (plain rows, no correlation assembly).
var sampleTimes: [Duration] = []
for _ in 0..<50 {
    sampleTimes.append(try clock.measure {
        _ = try store.samples(SampleQuery(type: .heartRate, sort: .startDateDescending, limit: 500), as: daemon)
    })
}
print("last 500 heart-rate samples: p50 \(ms(percentile(sampleTimes, 0.5)))")

// 7. Statistics of one person: half the readings are patient-0001's.
let reader = HealthClient.user(uid: 1000)
try store.setAuthorization(AuthorizationGrant(uid: 1000, type: .bloodPressureSystolic, canShare: false, canRead: true, people: ["patient-0001"]), by: .user(uid: 0))
for (name, range) in [("a year", nil), ("30 days", DateRange(start: yearStart.addingTimeInterval(year - 30 * 86_400), end: yearStart.addingTimeInterval(year), strictStartDate: true))] {
    for (whose, client) in [("one person's, from the samples", reader), ("everyone's, from the rollup", daemon)] {
        var times: [Duration] = []
        var count = 0
        for _ in 0..<10 {
            times.append(try clock.measure {
                count = try store.statistics(of: .bloodPressureSystolic, predicate: SamplePredicate(dateRange: range), options: .discrete, as: client).all.sampleCount
            })
        }
        print("systolic statistics over \(name), \(whose) (\(count) readings): p50 \(ms(percentile(times, 0.5))), max \(ms(times.max()!))")
    }
}

// 8. Corrections on request, spread over the year's readings.
let deleted = (0..<1_000).map { "C4F312FFFE53F2C9-1-\($0 * (readingCount / 1_000))" }
let deletion = try clock.measure { _ = try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: deleted, as: daemon) }
print("delete 1000 readings in one call (tombstones, rollup slots recomputed, deletions remembered): \(ms(deletion))")
let revised = (0..<1_000).map { "C4F312FFFE53F2C9-1-\($0 * (readingCount / 1_000) + 1)" }
let revision = try clock.measure {
    for id in revised {
        _ = try store.reviseCorrelation(of: .bloodPressure, syncIdentifier: id, changes: [.exclusionReason: .string("benchmark")], as: daemon)
    }
}
print("annotate 1000 readings, one revision (one commit) each: \(ms(revision)) in all")
let bulk = (0..<1_000).map { "C4F312FFFE53F2C9-1-\($0 * (readingCount / 1_000) + 2)" }
let bulkRevision = try clock.measure {
    _ = try store.reviseCorrelations(of: .bloodPressure, syncIdentifiers: bulk, changes: [.exclusionReason: .string("benchmark")], as: daemon)
}
print("annotate 1000 readings in one call (`AnnotateReadings`: one transaction, revisions and edit history): \(ms(bulkRevision))")

// STORE_BENCHMARK_READ_LOOP=n repeats the last-100 query n more times (for profiling the read path).
if let loops = Int(ProcessInfo.processInfo.environment["STORE_BENCHMARK_READ_LOOP"] ?? "") {
    for _ in 0..<loops {
        _ = try store.correlations(CorrelationQuery(type: .bloodPressure, sort: .startDateDescending, limit: 100), as: daemon)
    }
}
