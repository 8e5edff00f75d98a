import Foundation

/// One cuff reading as the Gateway hands it to the store; converted into a `bloodPressure`
/// ``Correlation`` (systolic + diastolic + optional mean member) with the pulse as a linked
/// `heartRate` sample, all saved in one transaction (docs/reference/HEALTH-STORE.md §1–3).
public struct BloodPressureReading: Sendable, Hashable {
    /// Systolic pressure in ``pressureUnit``.
    public var systolic: Double
    /// Diastolic pressure in ``pressureUnit``.
    public var diastolic: Double
    /// Mean arterial pressure in ``pressureUnit``, if valid.
    public var mean: Double?
    /// Unit of the three pressures (mmHg, or kPa for kPa cuffs); converted to mmHg once, at save.
    public var pressureUnit: HealthUnit
    /// Pulse rate in ``pulseUnit``, if reported.
    public var pulse: Double?
    /// Unit of the pulse (count/min).
    public var pulseUnit: HealthUnit
    /// The cuff's clock reading for the measurement; nil when the cuff sent no time stamp.
    public var deviceTimestamp: Date?
    /// Whether the reading is dated by ``deviceTimestamp``: false when the gateway does not believe it (a time too far
    /// ahead of its own clock), which is then kept as reported but the reading dated ``receivedAt``.
    public var isDeviceTimestampBelieved: Bool
    /// Offset device clock → gateway clock in ms (PHD IG coincident time stamp); nil if unknown.
    public var clockOffsetMs: Int64?
    /// When the gateway received the reading.
    public var receivedAt: Date
    /// IANA time zone of the gateway.
    public var timeZoneIdentifier: String?
    /// The cuff; nil for a reading entered by hand.
    public var device: HealthDevice?
    /// BPS User ID (0–254; 255 unknown).
    public var deviceUserID: UInt8?
    /// The person mapped to the cuff's user ID.
    public var personIdentifier: String?
    /// Raw BLE 0x2A35 measurement status bits.
    public var measurementStatus: UInt16?
    /// Body position, if known.
    public var bodyPosition: BodyPosition?
    /// Cuff location, if known.
    public var measurementLocation: MeasurementLocation?
    /// Original unit and SFLOAT fields, so the device value stays recoverable (docs/reference/HEALTH-STORE.md §1).
    public var deviceValue: String?
    /// Whether a person entered the reading by hand (`HKMetadataKeyWasUserEntered`; Health Connect recording
    /// method 3, manual entry) rather than a cuff sending it.
    public var wasUserEntered: Bool
    /// What a person wrote about the reading.
    public var note: String?
    /// Sync identifier: device identity + user ID + sequence number or time stamp + value hash
    /// (docs/reference/HEALTH-STORE.md §3).
    public var syncIdentifier: String
    /// Sync version (≥ 0).
    public var syncVersion: Int64

    /// A reading; optional fields default to unknown.
    public init(
        systolic: Double, diastolic: Double, mean: Double? = nil, pressureUnit: HealthUnit = .millimeterOfMercury,
        pulse: Double? = nil, pulseUnit: HealthUnit = .countPerMinute, deviceTimestamp: Date? = nil,
        isDeviceTimestampBelieved: Bool = true, clockOffsetMs: Int64? = nil, receivedAt: Date, timeZoneIdentifier: String? = nil, device: HealthDevice?,
        deviceUserID: UInt8? = nil, personIdentifier: String? = nil, measurementStatus: UInt16? = nil,
        bodyPosition: BodyPosition? = nil, measurementLocation: MeasurementLocation? = nil,
        deviceValue: String? = nil, wasUserEntered: Bool = false, note: String? = nil, syncIdentifier: String, syncVersion: Int64 = 0
    ) {
        self.systolic = systolic
        self.diastolic = diastolic
        self.mean = mean
        self.pressureUnit = pressureUnit
        self.pulse = pulse
        self.pulseUnit = pulseUnit
        self.deviceTimestamp = deviceTimestamp
        self.isDeviceTimestampBelieved = isDeviceTimestampBelieved
        self.clockOffsetMs = clockOffsetMs
        self.receivedAt = receivedAt
        self.timeZoneIdentifier = timeZoneIdentifier
        self.device = device
        self.deviceUserID = deviceUserID
        self.personIdentifier = personIdentifier
        self.measurementStatus = measurementStatus
        self.bodyPosition = bodyPosition
        self.measurementLocation = measurementLocation
        self.deviceValue = deviceValue
        self.wasUserEntered = wasUserEntered
        self.note = note
        self.syncIdentifier = syncIdentifier
        self.syncVersion = syncVersion
    }

    /// The measurement time: the device time corrected by the clock offset when both are known
    /// (PHD IG `CoincidentTimeStamp.html`), the device time alone when no offset is known, else — no device time, or
    /// one not believed — the time received.
    public var effectiveDate: Date {
        guard let deviceTimestamp, isDeviceTimestampBelieved else { return receivedAt }
        guard let clockOffsetMs else { return deviceTimestamp }
        return deviceTimestamp.addingTimeInterval(Double(clockOffsetMs) / 1000)
    }
}
