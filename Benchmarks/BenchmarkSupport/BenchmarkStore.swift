import Foundation
import HealthStore

/// A store of `count` readings, `spacing` seconds apart, written in batches as cuffd's ingest writes them.
public func makeStore(_ path: String, count: Int, spacing: TimeInterval = 60) throws {
    let store = try HealthStore.open(path: path)
    let device = HealthDevice(identity: "C4F312FFFE53F2C9", name: "BP-1", manufacturer: "cuffd project", model: "SIM-1", serialNumber: "0001", localIdentifier: "C4:F3:12:53:F2:C9")
    let start = Date(timeIntervalSince1970: 1_600_000_000)
    for batch in stride(from: 0, to: count, by: 10_000) {
        let readings = (batch ..< min(count, batch + 10_000)).map { (n: Int) -> BloodPressureReading in
            let systolic = Double(100 + n % 60), diastolic = Double(60 + n % 30), pulse = Double(50 + n % 40)
            return BloodPressureReading(
                systolic: systolic, diastolic: diastolic, mean: 90, pulse: pulse,
                receivedAt: start.addingTimeInterval(Double(n) * spacing), device: device, deviceUserID: 1,
                measurementStatus: 0, syncIdentifier: "C4F312FFFE53F2C9-1-\(n)")
        }
        _ = try store.saveBloodPressure(readings, as: .daemon())
    }
}
