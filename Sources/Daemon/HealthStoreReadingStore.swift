import FoundationEssentials
import Gateway
import GATTHealth
import HealthStore

/// The Gateway's ``ReadingStore`` over HealthStore: each reading becomes one blood-pressure correlation with
/// its pulse, written as the daemon's own source, deduplicated by its sync identifier (docs/reference/HEALTH-STORE.md §3).
public struct HealthStoreReadingStore: ReadingStore {
    private let store: any HealthStoring
    private let client: HealthClient

    public init(store: any HealthStoring, client: HealthClient = .daemon()) {
        self.store = store
        self.client = client
    }

    public func commit(_ reading: Reading) async throws -> CommitOutcome {
        let outcome = try store.saveBloodPressure(Self.record(reading), as: client)
        return outcome.didCommit ? .stored : .alreadyStored
    }

    /// The store's record of a Gateway reading: values as the cuff sent them with their unit, the device's
    /// provenance, the device time only when known, and the raw payload kept as the device value.
    static func record(_ reading: Reading) -> BloodPressureReading {
        let device = reading.device
        return BloodPressureReading(
            systolic: reading.systolic.doubleValue, diastolic: reading.diastolic.doubleValue,
            mean: reading.meanArterialPressure?.doubleValue,
            pressureUnit: reading.unit == .kilopascals ? .kilopascal : .millimeterOfMercury,
            pulse: reading.pulseRate?.doubleValue, deviceTimestamp: reading.deviceTime?.dateReadAsUTC,
            clockOffsetMs: reading.clockOffset.map { Int64($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) },
            receivedAt: reading.receivedAt,
            device: HealthDevice(
                identity: device.stableKey, deviceType: "blood-pressure-cuff", name: device.name,
                manufacturer: device.manufacturer, model: device.model, serialNumber: device.serial,
                hardwareVersion: device.hardware, firmwareVersion: device.firmware, softwareVersion: device.software,
                localIdentifier: device.address.description),
            deviceUserID: reading.userID, personIdentifier: reading.person, measurementStatus: reading.status?.rawValue,
            deviceValue: "0x2A35:" + Hex.bytes(reading.payload, separator: ""),
            syncIdentifier: reading.syncIdentifier)
    }
}
