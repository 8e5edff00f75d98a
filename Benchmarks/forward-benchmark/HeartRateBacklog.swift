import BlueZ
import Daemon
import Foundation
import Gateway
import HealthStore

/// The strap of the heart-rate backlog.
let syntheticStrap = DeviceIdentity(
    address: BluetoothAddress("E8:3C:A1:07:6D:21")!, name: "HRM-1", manufacturer: "cuffd project", model: "SIM-HR", serial: "0007", firmware: "1.0")

/// The `n`th value of a 1 Hz strap: a heart rate, its skin contact, one RR interval, Energy Expended every tenth.
func syntheticHeartRate(_ n: Int) -> HeartRateSample {
    let bpm = UInt16(60 + n % 40)
    return HeartRateSample(
        device: syntheticStrap, person: "benchmark", beatsPerMinute: bpm, sensorContact: .detected,
        energyExpended: n.isMultiple(of: 10) ? UInt16(n / 10 % 65_536) : nil, rrIntervals: [UInt16(61_440 / Int(bpm))],
        receivedAt: Date(timeIntervalSince1970: 1_600_000_000 + Double(n)))
}

/// A store of `count` such values, committed as cuffd commits a strap's batches (``HealthStoreReadingStore``), 10 000
/// at a time.
func makeHeartRateStore(_ path: String, count: Int) async throws {
    let store = HealthStoreReadingStore(store: try HealthStore.open(path: path))
    for batch in stride(from: 0, to: count, by: 10_000) {
        _ = try await store.commit(heartRates: (batch ..< min(count, batch + 10_000)).map(syntheticHeartRate))
    }
}
