import Foundation
import HealthStore

/// The one cuff every synthetic reading comes from.
public let syntheticDevice = HealthDevice(
    identity: "C4F312FFFE53F2C9", name: "BP-1", manufacturer: "cuffd project", model: "SIM-1", serialNumber: "0001",
    localIdentifier: "C4:F3:12:53:F2:C9")

/// The `n`th synthetic reading, `spacing` seconds after the one before; `revision` > 0 is the same reading revised
/// (same sync identifier), its systolic value raised by 50.
public func syntheticReading(_ n: Int, spacing: TimeInterval = 60, revision: Int64 = 0) -> BloodPressureReading {
    let systolic = Double(100 + n % 60) + (revision > 0 ? 50 : 0), diastolic = Double(60 + n % 30), pulse = Double(50 + n % 40)
    return BloodPressureReading(
        systolic: systolic, diastolic: diastolic, mean: 90, pulse: pulse,
        receivedAt: Date(timeIntervalSince1970: 1_600_000_000).addingTimeInterval(Double(n) * spacing), device: syntheticDevice,
        deviceUserID: 1, measurementStatus: 0, syncIdentifier: "C4F312FFFE53F2C9-1-\(n)", syncVersion: revision)
}

/// A store of `count` readings, `spacing` seconds apart, written in batches as cuffd's ingest writes them.
public func makeStore(_ path: String, count: Int, spacing: TimeInterval = 60) throws {
    let store = try HealthStore.open(path: path)
    for batch in stride(from: 0, to: count, by: 10_000) {
        _ = try store.saveBloodPressure((batch ..< min(count, batch + 10_000)).map { syntheticReading($0, spacing: spacing) }, as: .daemon())
    }
}

/// A new temporary folder `name-…` with a store of `count` synthetic readings in it (``makeStore(_:count:spacing:)``):
/// the backlog a forwarding benchmark catches up.
public func backlog(_ name: String, count: Int) throws -> (directory: URL, storePath: String) {
    let directory = try temporaryDirectory(name)
    let storePath = directory.appendingPathComponent("health.sqlite").path
    try makeStore(storePath, count: count)
    return (directory, storePath)
}

/// forward.conf in `directory` for gateway `benchmark`, its anchor beside it, with `sink` (a `[PostgreSQL]` or `[MQTT]`
/// section); returns its path.
public func forwardConfiguration(in directory: URL, sink: String) throws -> String {
    let path = directory.appendingPathComponent("forward.conf").path
    try "[Forward]\nGateway=benchmark\nState=\(directory.appendingPathComponent("anchor").path)\n\(sink)\n"
        .write(toFile: path, atomically: false, encoding: .utf8)
    return path
}
