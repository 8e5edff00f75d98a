import FoundationEssentials
import GATTHealth

/// One Heart Rate Measurement (0x2A37, docs/reference/GATT-HEALTH.md §9) as the Gateway hands it to the store.
/// The characteristic carries no time stamp: the time is when the gateway received the notification.
public struct HeartRateSample: Hashable, Sendable {
    public var device: DeviceIdentity
    /// The person the configuration maps the device's readings to (0x2A37 names no user).
    public var person: String?
    /// Beats per minute.
    public var beatsPerMinute: UInt16
    public var sensorContact: HeartRateMeasurement.SensorContact
    /// Kilojoules since the sensor's last reset, when it sent the field.
    public var energyExpended: UInt16?
    /// The beat-to-beat intervals it sent, oldest first, in 1/1024 s.
    public var rrIntervals: [UInt16]
    /// When the gateway received the value.
    public var receivedAt: Date

    public init(
        device: DeviceIdentity, person: String?, beatsPerMinute: UInt16, sensorContact: HeartRateMeasurement.SensorContact,
        energyExpended: UInt16?, rrIntervals: [UInt16], receivedAt: Date
    ) {
        self.device = device
        self.person = person
        self.beatsPerMinute = beatsPerMinute
        self.sensorContact = sensorContact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
        self.receivedAt = receivedAt
    }

    /// The sample of `measurement` from `device`, received at `receivedAt`.
    init(_ measurement: HeartRateMeasurement, device: DeviceIdentity, users: UserDirectory, receivedAt: Date) {
        self.init(
            device: device, person: users.person(for: nil, on: device), beatsPerMinute: measurement.heartRate,
            sensorContact: measurement.sensorContact, energyExpended: measurement.energyExpended,
            rrIntervals: measurement.rrIntervals.map { Array($0) } ?? [], receivedAt: receivedAt)
    }

    /// Whether the sensor said it had no skin contact: such values are kept, marked, and left out of statistics
    /// (docs/gateway.md, "Heart rate").
    public var lacksContact: Bool { sensorContact == .notDetected }

    /// The key that recognizes this sample when it is committed again (a retry after the store refused, or the
    /// spool replayed): device identity and the microsecond of receipt — a sensor sends at most a few values a
    /// second, and the notification has no time or sequence number of its own.
    public var syncIdentifier: String {
        "cuffd.hr:\(device.stableKey):\(Int64((receivedAt.timeIntervalSince1970 * 1_000_000).rounded()))"
    }
}
