import Foundation
import Synchronization
@testable import HealthStore

/// A settable clock for retention and save-time tests.
final class TestClock: Sendable {
    private let now = Mutex(Date(timeIntervalSince1970: 1_773_000_000))
    var date: Date { now.withLock { $0 } }
    func advance(by seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

enum Fixture {
    static let t0 = Date(timeIntervalSince1970: 1_773_000_000)  // 2026-03-08T20:00:00Z
    static let cuff = HealthDevice(identity: "C4F312FFFE53F2C9", deviceType: "bloodPressureMonitor", name: "BLESmart", manufacturer: "Omron", model: "HEM-7155T", serialNumber: "123", firmwareVersion: "1.0", localIdentifier: "C4:F3:12:53:F2:C9")
    static let daemon = HealthClient.daemon()
    static let alice = HealthClient.user(uid: 1000)
    static let bob = HealthClient.user(uid: 1001)
    static let root = HealthClient.user(uid: 0)

    static func store(clock: TestClock = TestClock(), retention: TimeInterval = 30 * 86_400, adminGroup: UInt32? = nil) throws -> HealthStore {
        var configuration = StoreConfiguration()
        configuration.clock = { clock.date }
        configuration.tombstoneRetention = retention
        configuration.adminGroup = adminGroup
        return try HealthStore.inMemory(configuration: configuration)
    }

    static func reading(_ n: Int = 1, version: Int64 = 0, systolic: Double = 120, unit: HealthUnit = .millimeterOfMercury, pulse: Double? = 67) -> BloodPressureReading {
        BloodPressureReading(
            systolic: systolic, diastolic: 80, mean: 93, pressureUnit: unit, pulse: pulse,
            receivedAt: t0.addingTimeInterval(Double(n) * 3600), timeZoneIdentifier: "Europe/Berlin", device: cuff,
            deviceUserID: 1, personIdentifier: "patient-0001", measurementStatus: 0, bodyPosition: .sittingDown,
            measurementLocation: .leftUpperArm, syncIdentifier: "C4F312FFFE53F2C9-1-\(n)", syncVersion: version)
    }

    static func heartRate(_ bpm: Double, at date: Date, sync: String? = nil, version: Int64 = 0, device: HealthDevice? = nil, metadata: HealthMetadata = HealthMetadata()) -> QuantitySample {
        var metadata = metadata
        if let sync {
            metadata.syncIdentifier = sync
            metadata.syncVersion = version
        }
        return QuantitySample(type: .heartRate, quantity: HealthQuantity(unit: .countPerMinute, doubleValue: bpm), start: date, end: date, device: device, metadata: metadata)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("healthstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func count(_ store: HealthStore, _ type: QuantityType) throws -> Int {
        try store.samples(SampleQuery(type: type), as: daemon).count
    }
}
