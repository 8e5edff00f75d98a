// store-fixture-writer: writes the store a release leaves behind, for StoreUpgradeTests, which opens every such
// fixture with today's HealthStore (docs/packaging.md, "Upgrades keep every reading"). Run once per release:
//
//     swift run store-fixture-writer Tests/HealthStoreTests/Fixtures/store-$(dpkg-parsechangelog -S Version).sqlite
//
// What it writes is the contract StoreUpgradeTests checks, so it changes only with that test:
//   - 24 blood-pressure readings from the daemon, hourly from 2026-03-08T21:00Z, sync identifiers
//     C4F312FFFE53F2C9-1-1 … -24 at version 0, systolic 120 + n; reading 10 saved again at version 1, systolic 150;
//   - grants: uid 1000 may share and read heart rate and read systolic and diastolic; uid 1001 may read heart rate;
//   - 5 heart-rate samples of uid 1000, sync identifiers alice-hr-1 … -5, 60 + n bpm;
//   - 3 heart-rate samples of the daemon, cuffd-hr-1 … -3, of which cuffd-hr-3 is then deleted (a tombstone).
import CuffdVersion
import Foundation
import HealthStore

let arguments = CommandLine.arguments
guard arguments.count == 2, !FileManager.default.fileExists(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: store-fixture-writer <new database path>\n".utf8))
    exit(64)
}

let start = Date(timeIntervalSince1970: 1_773_000_000)
let cuff = HealthDevice(identity: "C4F312FFFE53F2C9", deviceType: "bloodPressureMonitor", name: "BLESmart", manufacturer: "Omron", model: "HEM-7155T")
let daemon = HealthClient.daemon()
let alice = HealthClient.user(uid: 1000)

func reading(_ n: Int, systolic: Double, version: Int64) -> BloodPressureReading {
    BloodPressureReading(
        systolic: systolic, diastolic: 80, mean: 95, pulse: 64, receivedAt: start.addingTimeInterval(Double(n) * 3600),
        timeZoneIdentifier: "Europe/Berlin", device: cuff, deviceUserID: 1, syncIdentifier: "C4F312FFFE53F2C9-1-\(n)", syncVersion: version)
}

func heartRate(_ sync: String, bpm: Double, at offset: TimeInterval) -> QuantitySample {
    var metadata = HealthMetadata()
    metadata.syncIdentifier = sync
    metadata.syncVersion = 0
    let at = start.addingTimeInterval(offset)
    return QuantitySample(type: .heartRate, quantity: HealthQuantity(unit: .countPerMinute, doubleValue: bpm), start: at, end: at, metadata: metadata)
}

/// Writes the fixture; the store is closed when this returns, so its pool checkpoints the WAL into the one file.
func write(to path: String) throws {
    var configuration = StoreConfiguration()
    configuration.sourceVersion = Release.version
    let store = try HealthStore.open(path: path, configuration: configuration)
    _ = try store.saveBloodPressure((1...24).map { reading($0, systolic: 120 + Double($0), version: 0) }, as: daemon)
    _ = try store.saveBloodPressure(reading(10, systolic: 150, version: 1), as: daemon)

    let root = HealthClient.user(uid: 0)
    try store.setAuthorization(AuthorizationGrant(uid: 1000, type: .heartRate, canShare: true, canRead: true), by: root)
    try store.setAuthorization(AuthorizationGrant(uid: 1000, type: .bloodPressureSystolic, canShare: false, canRead: true), by: root)
    try store.setAuthorization(AuthorizationGrant(uid: 1000, type: .bloodPressureDiastolic, canShare: false, canRead: true), by: root)
    try store.setAuthorization(AuthorizationGrant(uid: 1001, type: .heartRate, canShare: false, canRead: true), by: root)

    _ = try store.save((1...5).map { heartRate("alice-hr-\($0)", bpm: 60 + Double($0), at: Double($0) * 600) }, as: alice)
    let saved = try store.save((1...3).map { heartRate("cuffd-hr-\($0)", bpm: 70, at: Double($0) * 900) }, as: daemon)
    _ = try store.delete([saved[2].object.uuid], as: daemon)
}

do {
    try write(to: arguments[1])
} catch {
    FileHandle.standardError.write(Data("store-fixture-writer: \(error)\n".utf8))
    exit(1)
}
