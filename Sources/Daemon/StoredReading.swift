import Foundation
import GATTHealth
import Gateway
import HealthStore

/// A blood-pressure reading as cuffd reports it to its clients (`cuffctl readings --json`, the D-Bus
/// `Readings` method, `ReadingStored` signals): one stored correlation with its pulse, pressures in mmHg
/// and pulse in beats per minute whatever unit the cuff sent, the cuff's provenance and its clock.
public struct StoredReading: Sendable, Hashable {
    /// The cuff as stored with every sample (docs/reference/HEALTH-STORE.md §2).
    public struct Device: Sendable, Hashable {
        public var address: String?
        public var name: String?
        public var manufacturer: String?
        public var model: String?
        public var serial: String?
        public var firmware: String?
    }

    public var systolic: Double
    public var diastolic: Double
    public var meanArterialPressure: Double?
    public var pulseRate: Double?
    /// When it was measured: the cuff's clock corrected by a measured offset, else the time received.
    public var time: Date
    /// The cuff's own clock, `YYYY-MM-DDTHH:MM:SS` without a zone (docs/reference/GATT-HEALTH.md §10); nil when it sent
    /// no time stamp or an unknown one.
    public var deviceTime: String?
    public var device: Device
    public var userID: UInt8?
    /// The person the configuration maps the User ID to.
    public var person: String?
    /// The cuff's Measurement Status bits as sent (0x2A35).
    public var status: UInt16?
    public var syncIdentifier: String
    /// The reading's revision: a re-sent reading with new bytes for the same identifier has a greater one
    /// (HealthKit's sync version).
    public var syncVersion: Int64
    /// Where the reading stands in the store's start-date order, for paging (``SamplePosition``).
    public var position: SamplePosition

    /// The unit of every pressure above.
    public static let unit = "mmHg"

    /// The reading a stored blood-pressure correlation holds; nil when the correlation lacks a member the
    /// caller may read (HealthStore drops members of types a client may not read).
    public init?(_ correlation: Correlation) {
        guard let systolic = correlation.member(.bloodPressureSystolic), let diastolic = correlation.member(.bloodPressureDiastolic),
              let systolicValue = try? systolic.quantity.doubleValue(for: .millimeterOfMercury),
              let diastolicValue = try? diastolic.quantity.doubleValue(for: .millimeterOfMercury)
        else { return nil }
        self.systolic = systolicValue
        self.diastolic = diastolicValue
        meanArterialPressure = try? correlation.member(.bloodPressureMean)?.quantity.doubleValue(for: .millimeterOfMercury)
        pulseRate = try? correlation.linkedSamples.first { $0.type == .heartRate }?.quantity.doubleValue(for: .countPerMinute)
        time = correlation.startDate
        let metadata = correlation.metadata
        // The store keeps a cuff's wall clock as a date read in UTC (`DateTime.dateReadAsUTC`).
        deviceTime = metadata.deviceTimestamp.flatMap { DateTime(utc: $0).isoString }
        let stored = correlation.device
        device = Device(
            address: stored?.localIdentifier, name: stored?.name, manufacturer: stored?.manufacturer, model: stored?.model,
            serial: stored?.serialNumber, firmware: stored?.firmwareVersion)
        userID = metadata.deviceUserID.flatMap(UInt8.init(exactly:))
        person = metadata.personIdentifier
        status = metadata.measurementStatus.flatMap(UInt16.init(exactly:))
        syncIdentifier = metadata.syncIdentifier ?? correlation.uuid.uuidString
        syncVersion = metadata.syncVersion ?? 0
        position = SamplePosition(correlation)
    }
}
