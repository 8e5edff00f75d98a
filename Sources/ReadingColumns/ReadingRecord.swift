/// A blood-pressure reading as cuffd hands it to its clients (docs/dbus-api.md): pressures in mmHg and pulse in
/// beats per minute whatever unit the cuff sent, the measurement time, the cuff's own clock and provenance, the
/// reading's sync identifier and revision, and its place in the order of measurement times (`cursor`). One row of
/// a page of ``ReadingColumns``.
public struct ReadingRecord: Sendable, Hashable {
    public var systolic: Double
    public var diastolic: Double
    public var meanArterialPressure: Double?
    public var pulseRate: Double?
    /// Unix seconds of the measurement.
    public var time: Double
    /// The cuff's own clock, `YYYY-MM-DDTHH:MM:SS` without a zone; nil when it sent none or an unknown one.
    public var deviceTime: String?
    /// `address`, `name`, `manufacturer`, `model`, `serial`, `firmware`, each when known (``deviceFields``).
    public var device: [String: String]
    public var userID: UInt8?
    /// The person the configuration maps the cuff's User ID to.
    public var person: String?
    /// The cuff's Measurement Status bits as sent (0x2A35).
    public var status: UInt16?
    public var syncIdentifier: String
    /// The reading's revision: a re-sent reading with new bytes for the same identifier has a greater one.
    public var syncVersion: Int64
    /// The reading's place for paging (docs/dbus-api.md, "Paging"), opaque.
    public var cursor: String
    /// Whether a person entered the reading by hand (`cuffctl add`) rather than a cuff sending it.
    public var enteredByHand = false
    /// The arm the cuff was on — `left`, `right`, or `left wrist`, `right wrist` — when known.
    public var arm: String?
    /// The body's position — `sitting`, `standing`, `lying`, `reclining` — when known.
    public var position: String?
    /// What a person wrote about the reading.
    public var note: String?
    /// Why the reading is kept out of statistics and averages; nil for one that counts.
    public var exclusionReason: String?

    /// Whether the reading is kept out of statistics and averages, still listed.
    public var isExcluded: Bool { exclusionReason != nil }

    /// The keys a reading's `device` may hold, in the order outputs list them: the Bluetooth address, the advertised
    /// name, and the Device Information strings (docs/dbus-api.md, "Readings").
    public static let deviceFields = ["address", "name", "manufacturer", "model", "serial", "firmware"]

    /// The unit of every pressure above.
    public static let unit = "mmHg"
    public var unit: String { Self.unit }

    public init(
        systolic: Double, diastolic: Double, meanArterialPressure: Double? = nil, pulseRate: Double? = nil, time: Double,
        deviceTime: String? = nil, device: [String: String] = [:], userID: UInt8? = nil, person: String? = nil,
        status: UInt16? = nil, syncIdentifier: String, syncVersion: Int64 = 0, cursor: String = ""
    ) {
        self.systolic = systolic
        self.diastolic = diastolic
        self.meanArterialPressure = meanArterialPressure
        self.pulseRate = pulseRate
        self.time = time
        self.deviceTime = deviceTime
        self.device = device
        self.userID = userID
        self.person = person
        self.status = status
        self.syncIdentifier = syncIdentifier
        self.syncVersion = syncVersion
        self.cursor = cursor
    }
}
