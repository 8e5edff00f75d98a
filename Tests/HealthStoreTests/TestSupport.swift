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

extension Fixture {
    /// Rollup rows that differ from a recomputation from the samples (`wrong`) or lack one (`missing`), and the same of
    /// day rows against their slots; all 0 when the rollup is exact.
    struct RollupMismatches: Equatable {
        var wrong = 0, missing = 0, wrongDays = 0, missingDays = 0
    }

    /// The rollup of `store` checked row by row (white box): the part restated from each sample — in a correlation or
    /// not, the sensor contact code, excluded on request or not (migrations v6, v9).
    static func rollupMismatches(_ store: HealthStore) throws -> RollupMismatches {
        let engine = store.engine as! SQLiteEngine
        return try engine.read { db in
            let part = """
                (CASE WHEN correlation_id IS NULL THEN 0 ELSE 4 END + coalesce(json_extract(metadata, '$.HeartRateSensorContact') + 1, 0)
                 + CASE WHEN json_extract(metadata, '$.ExclusionReason') IS NULL THEN 0 ELSE 8 END)
                """
            let expected = """
                SELECT type_id, \(part) AS part, CAST(start_at / 900000000 AS INTEGER) AS slot, source_id, count(*) AS n, sum(value) AS total,
                       min(value) AS lo, max(value) AS hi, max(start_at) AS last_at
                FROM sample WHERE value IS NOT NULL GROUP BY type_id, part, slot, source_id
                """
            let wrong = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM sample_rollup r JOIN (\(expected)) e USING (type_id, part, slot, source_id)
                WHERE r.n != e.n OR abs(r.total - e.total) > 1e-6 OR r.lo != e.lo OR r.hi != e.hi OR r.last_at != e.last_at
                   OR r.last_value != (SELECT value FROM sample s WHERE s.type_id = r.type_id AND s.source_id = r.source_id
                                       AND s.start_at = r.last_at AND \(part) = r.part ORDER BY s.id DESC LIMIT 1)
                """)!
            let missing = try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM (\(expected))) - (SELECT count(*) FROM sample_rollup)")!
            let days = """
                SELECT type_id, part, slot / 96 AS day, source_id, sum(n) AS n, sum(total) AS total, min(lo) AS lo, max(hi) AS hi,
                       max(last_at) AS last_at
                FROM sample_rollup GROUP BY type_id, part, day, source_id
                """
            let wrongDays = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM sample_rollup_day d JOIN (\(days)) e USING (type_id, part, day, source_id)
                WHERE d.n != e.n OR abs(d.total - e.total) > 1e-6 OR d.lo != e.lo OR d.hi != e.hi OR d.last_at != e.last_at
                   OR d.last_value != (SELECT last_value FROM sample_rollup r WHERE r.type_id = d.type_id AND r.part = d.part
                                       AND r.source_id = d.source_id AND r.last_at = d.last_at)
                """)!
            let missingDays = try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM (\(days))) - (SELECT count(*) FROM sample_rollup_day)")!
            return RollupMismatches(wrong: wrong, missing: missing, wrongDays: wrongDays, missingDays: missingDays)
        }
    }
}
