import Foundation
import HealthStore

/// The cuff synthetic readings come from unless told otherwise: ``syntheticCuff(_:)`` 0.
public let syntheticDevice = syntheticCuff(0)

/// The `number`th synthetic cuff (addresses C4:F3:12:53:F2:C9 on): each has sync identifiers of its own, so that
/// gateways given stores of different cuffs can share one central table.
public func syntheticCuff(_ number: Int) -> HealthDevice {
    let low = 0x53F2C9 + number
    return HealthDevice(
        identity: String(format: "C4F312FFFE%06X", low), name: "BP-1", manufacturer: "cuffd project", model: "SIM-1",
        serialNumber: String(format: "%04d", number + 1),
        localIdentifier: String(format: "C4:F3:12:%02X:%02X:%02X", low >> 16 & 0xFF, low >> 8 & 0xFF, low & 0xFF))
}

/// The `n`th synthetic reading of `device`, `spacing` seconds after the one before; `revision` > 0 is the same reading
/// revised (same sync identifier), its systolic value raised by 50.
public func syntheticReading(_ n: Int, spacing: TimeInterval = 60, revision: Int64 = 0, device: HealthDevice = syntheticDevice) -> BloodPressureReading {
    let systolic = Double(100 + n % 60) + (revision > 0 ? 50 : 0), diastolic = Double(60 + n % 30), pulse = Double(50 + n % 40)
    return BloodPressureReading(
        systolic: systolic, diastolic: diastolic, mean: 90, pulse: pulse,
        receivedAt: Date(timeIntervalSince1970: 1_600_000_000).addingTimeInterval(Double(n) * spacing), device: device,
        deviceUserID: 1, measurementStatus: 0, syncIdentifier: "\(device.identity)-1-\(n)", syncVersion: revision)
}

/// A store of `count` readings of `device`, `spacing` seconds apart, written in batches as cuffd's ingest writes them.
public func makeStore(_ path: String, count: Int, spacing: TimeInterval = 60, device: HealthDevice = syntheticDevice) throws {
    let store = try HealthStore.open(path: path)
    for batch in stride(from: 0, to: count, by: 10_000) {
        _ = try store.saveBloodPressure((batch ..< min(count, batch + 10_000)).map { syntheticReading($0, spacing: spacing, device: device) }, as: .daemon())
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

/// forward.conf in `directory` for gateway `gateway`, its anchor beside it, with `sink` (a `[PostgreSQL]` or `[MQTT]`
/// section); returns its path.
public func forwardConfiguration(in directory: URL, gateway: String = "benchmark", sink: String) throws -> String {
    let path = directory.appendingPathComponent("forward.conf").path
    try "[Forward]\nGateway=\(gateway)\nState=\(directory.appendingPathComponent("anchor").path)\n\(sink)\n"
        .write(toFile: path, atomically: false, encoding: .utf8)
    return path
}
