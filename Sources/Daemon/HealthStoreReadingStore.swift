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

    public func commit(heartRates samples: [HeartRateSample]) async throws -> Int {
        try store.save(samples.map(Self.sample), as: client).filter(\.didCommit).count
    }

    /// The store's sample of a heart-rate value: a `heartRate` quantity at the time it was received, with the
    /// sensor contact, energy expended and RR intervals as metadata (docs/health-store.md, "Heart rate"), its UUID
    /// derived from its sync identifier, so that the store keeps it in a series row (docs/health-store.md,
    /// "Heart-rate series") and it is the same sample whenever it is committed again. Nothing
    /// more: a sensor's values are most of what a store holds, and every byte of a row is written twice (docs/health-store.md,
    /// "Bytes written"), so neither `WasUserEntered` false (what its absence says) nor the frame as `DeviceValue`
    /// (its fields are all kept; nothing reads it back) is stored.
    static func sample(_ heartRate: HeartRateSample) -> QuantitySample {
        var metadata = HealthMetadata()
        metadata.syncIdentifier = heartRate.syncIdentifier
        metadata.syncVersion = 1
        metadata.personIdentifier = heartRate.person
        metadata[.heartRateSensorContact] = .integer(Self.contactCode[heartRate.sensorContact]!)
        if let energy = heartRate.energyExpended { metadata[.energyExpended] = .integer(Int64(energy)) }
        if !heartRate.rrIntervals.isEmpty { metadata[.rrIntervals] = .string(heartRate.rrIntervals.map(String.init).joined(separator: ",")) }
        return QuantitySample(
            uuid: .sensorValue(syncIdentifier: heartRate.syncIdentifier, at: heartRate.receivedAt), type: .heartRate, quantity: HealthQuantity(unit: .countPerMinute, doubleValue: Double(heartRate.beatsPerMinute)),
            start: heartRate.receivedAt, end: heartRate.receivedAt, device: device(heartRate.device, type: "heart-rate-sensor"), metadata: metadata)
    }

    /// ``MetadataKey/heartRateSensorContact``'s codes.
    static let contactCode: [HeartRateMeasurement.SensorContact: Int64] = [.notSupported: 0, .notDetected: 1, .detected: 2]

    /// The store's device record of a cuff or sensor.
    static func device(_ device: DeviceIdentity, type: String) -> HealthDevice {
        HealthDevice(
            identity: device.stableKey, deviceType: type, name: device.name,
            manufacturer: device.manufacturer, model: device.model, serialNumber: device.serial,
            hardwareVersion: device.hardware, firmwareVersion: device.firmware, softwareVersion: device.software,
            localIdentifier: device.address.description)
    }

    /// The store's record of a Gateway reading: values as the cuff sent them with their unit, the device's
    /// provenance, the device time only when known — dated by it only when believed (docs/gateway.md, "Time") —, and
    /// the raw payload kept as the device value.
    static func record(_ reading: Reading) -> BloodPressureReading {
        return BloodPressureReading(
            systolic: reading.systolic.doubleValue, diastolic: reading.diastolic.doubleValue,
            mean: reading.meanArterialPressure?.doubleValue,
            pressureUnit: reading.unit == .kilopascals ? .kilopascal : .millimeterOfMercury,
            pulse: reading.pulseRate?.doubleValue, deviceTimestamp: reading.deviceTime?.dateReadAsUTC,
            isDeviceTimestampBelieved: reading.isDeviceTimeBelieved,
            clockOffsetMs: reading.clockOffset.map { Int64($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) },
            receivedAt: reading.receivedAt, device: device(reading.device, type: "blood-pressure-cuff"),
            deviceUserID: reading.userID, personIdentifier: reading.person, measurementStatus: reading.status?.rawValue,
            deviceValue: "0x2A35:" + Hex.bytes(reading.payload, separator: ""),
            syncIdentifier: reading.syncIdentifier)
    }
}
