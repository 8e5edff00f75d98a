import FoundationEssentials
import GATTHealth

/// One blood-pressure reading as the Gateway hands it to the store: the cuff's values with the precision
/// and unit it sent, who took it, on which device, and when.
public struct Reading: Hashable, Sendable {
    public var device: DeviceIdentity
    /// The cuff's User ID (0–254, 255 unknown), nil when the cuff sends none.
    public var userID: UInt8?
    /// The person the configuration maps that user to.
    public var person: String?
    /// The unit of every pressure, as the cuff's flag says.
    public var unit: PressureUnit
    public var systolic: MedFloat16
    public var diastolic: MedFloat16
    /// nil when the cuff sent a special value, a 0 that means "not measured" (Beurer, docs/reference/GATT-HEALTH.md §13.5),
    /// or an implausible value (``dropped``).
    public var meanArterialPressure: MedFloat16?
    /// Beats per minute; nil when absent, special or implausible (``dropped``).
    public var pulseRate: MedFloat16?
    public var status: BloodPressureMeasurementStatus?
    /// The cuff's clock when it measured; nil when it sent no time stamp or an unknown one. Never invented.
    public var deviceTime: DateTime?
    /// When the gateway received the value.
    public var receivedAt: Date
    /// What to add to the cuff's clock (its wall-clock time read as UTC) to get the true instant, when a
    /// clock sync measured it: the gateway's time minus the cuff's, local zone included.
    public var clockOffset: Duration?
    /// The BPS 1.1 / Omron record sequence number, when the cuff has one.
    public var sequenceNumber: UInt16?
    /// The value exactly as received.
    public var payload: [UInt8]
    /// The MAP or pulse the cuff sent but the reading leaves out as implausible (docs/gateway.md, "Plausible values").
    public var dropped: [Implausibility]

    public init(
        device: DeviceIdentity, userID: UInt8?, person: String?, unit: PressureUnit, systolic: MedFloat16,
        diastolic: MedFloat16, meanArterialPressure: MedFloat16?, pulseRate: MedFloat16?,
        status: BloodPressureMeasurementStatus?, deviceTime: DateTime?, receivedAt: Date,
        clockOffset: Duration? = nil, sequenceNumber: UInt16? = nil, payload: [UInt8],
        dropped: [Implausibility] = []
    ) {
        self.device = device
        self.userID = userID
        self.person = person
        self.unit = unit
        self.systolic = systolic
        self.diastolic = diastolic
        self.meanArterialPressure = meanArterialPressure
        self.pulseRate = pulseRate
        self.status = status
        self.deviceTime = deviceTime
        self.receivedAt = receivedAt
        self.clockOffset = clockOffset
        self.sequenceNumber = sequenceNumber
        self.payload = payload
        self.dropped = dropped
    }

    /// The key that recognizes this reading when the cuff sends it again (docs/reference/HEALTH-STORE.md §3): device
    /// identity + User ID + the record's sequence number, or else its device time stamp and raw bytes.
    /// Time alone is not unique — cuffs send distinct readings with the same minute (docs/reference/GATT-HEALTH.md §13.3).
    /// A reading with an unknown device time is recognized by its bytes alone.
    public var syncIdentifier: String {
        let user = userID.map { "u\($0)" } ?? "u-"
        if let sequenceNumber { return "cuffd.bp:\(device.stableKey):\(user):seq\(sequenceNumber)" }
        let time = deviceTime?.isoString ?? "time-unknown"
        return "cuffd.bp:\(device.stableKey):\(user):\(time):" + Hex.bytes(payload, separator: "")
    }
}
