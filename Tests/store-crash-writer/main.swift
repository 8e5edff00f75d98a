// store-crash-writer: the child process of HealthStoreTests' crash-safety test
// (docs/reference/HEALTH-STORE.md §13.1, after SQLite's crash tests in `testing.html`).
//
// Usage: store-crash-writer <database path> <run id>
// Prints "ready" once the store is open, then loops forever: saves a blood-pressure reading
// (correlation + members + pulse in one transaction) and prints "R <run>-<n> <uuid>", and every
// fifth round saves a batch of 50 heart-rate samples and prints "B <run>-<n>", then 50 more as a sensor's values are
// saved, kept in a series row (docs/health-store.md, "Heart-rate series"), and prints "S <run>-<n> <uuid>,…"; every third round revises the
// reading before (a note and an exclusion, as `cuffctl annotate` does) and prints "A <run>-<n-1> <version>". A line is printed
// only after the commit returned, with one write(2), so every complete line is an acknowledged
// commit. The parent SIGKILLs this process at a random point.
import Foundation
import HealthStore

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: store-crash-writer <db> <run>\n".utf8))
    exit(2)
}
let run = arguments[2]

/// Value `k` of round `n`'s series batch: shaped as cuffd stores a strap's value — its UUID derived from its sync
/// identifier, which ends in its time in microseconds — so that the store keeps it in a series row. The parent looks the
/// acknowledged batches' values up by the UUIDs printed.
func sensorValue(run: String, round n: Int, k: Int, device: HealthDevice) -> QuantitySample {
    let at = Date(timeIntervalSince1970: 1_773_000_030 + Double(n) * 60 + Double(k))
    let syncIdentifier = "\(run)-\(n)-hrs:\(Int64((at.timeIntervalSince1970 * 1_000_000).rounded()))"
    var metadata = HealthMetadata()
    metadata.syncIdentifier = syncIdentifier
    metadata.syncVersion = 1
    metadata[.heartRateSensorContact] = .integer(2)
    return QuantitySample(
        uuid: .sensorValue(syncIdentifier: syncIdentifier, at: at), type: .heartRate,
        quantity: HealthQuantity(unit: .countPerMinute, doubleValue: Double(60 + k)), start: at, end: at, device: device, metadata: metadata)
}

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

do {
    let store = try HealthStore.open(path: arguments[1])
    let device = HealthDevice(identity: "C4F312FFFE53F2C9", deviceType: "bloodPressureMonitor", manufacturer: "Omron", model: "HEM-7155T")
    let strap = HealthDevice(identity: "E83CA1FFFE076D21", deviceType: "heart-rate-sensor", model: "SIM-HR")
    say("ready")
    var n = 0
    while true {
        n += 1
        let reading = BloodPressureReading(
            systolic: Double(100 + n % 60), diastolic: Double(60 + n % 30), mean: Double(80 + n % 20),
            pulse: Double(50 + n % 40), receivedAt: Date(timeIntervalSince1970: 1_773_000_000 + Double(n) * 60),
            device: device, deviceUserID: 1, syncIdentifier: "\(run)-\(n)")
        let outcome = try store.saveBloodPressure(reading, as: .daemon())
        say("R \(run)-\(n) \(outcome.object.uuid)")
        if n % 3 == 0 {
            let revised = try store.reviseCorrelation(
                of: .bloodPressure, syncIdentifier: "\(run)-\(n - 1)",
                changes: [.note: .string("revised in round \(n)"), .exclusionReason: .string("round \(n)")], as: .daemon())
            say("A \(run)-\(n - 1) \(revised.metadata.syncVersion ?? 0)")
        }
        if n % 5 == 0 {
            var batch: [QuantitySample] = []
            for k in 0..<50 {
                var metadata = HealthMetadata()
                metadata.syncIdentifier = "\(run)-\(n)-hr-\(k)"
                metadata.syncVersion = 0
                let at = Date(timeIntervalSince1970: 1_773_000_000 + Double(n) * 60 + Double(k))
                batch.append(QuantitySample(type: .heartRate, quantity: HealthQuantity(unit: .countPerMinute, doubleValue: 70), start: at, end: at, metadata: metadata))
            }
            _ = try store.save(batch, as: .daemon())
            say("B \(run)-\(n)")
            let values = (0..<50).map { sensorValue(run: run, round: n, k: $0, device: strap) }
            _ = try store.save(values, as: .daemon())
            say("S \(run)-\(n) " + values.map(\.uuid.uuidString).joined(separator: ","))
        }
    }
} catch {
    FileHandle.standardError.write(Data("store-crash-writer: \(error)\n".utf8))
    exit(1)
}
