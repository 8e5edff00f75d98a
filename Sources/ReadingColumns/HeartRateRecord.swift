/// A heart-rate sensor's sample (0x2A37) as cuffd hands it to its clients in a page of ``HeartRateColumns``
/// (docs/dbus-api.md, "Heart-rate change feed"): beats per minute, when cuffd received it (the value carries no
/// time), what the sensor said of its skin contact, its energy and beat-to-beat intervals, the sensor and the person
/// it is mapped to, and the sample's sync identifier and revision.
public struct HeartRateRecord: Sendable, Hashable {
    public var beatsPerMinute: Double
    /// Unix seconds of receipt.
    public var time: Double
    /// `detected`, `notDetected` or `notSupported` (``contactNames``).
    public var sensorContact: String
    /// Kilojoules since the sensor's last reset, when it sent the field.
    public var energyExpended: UInt16?
    /// Beat-to-beat intervals, oldest first, in 1/1024 s.
    public var rrIntervals: [UInt16]
    /// `address`, `name`, `manufacturer`, `model`, `serial`, `firmware`, each when known (``ReadingRecord/deviceFields``).
    public var device: [String: String]
    public var person: String?
    public var syncIdentifier: String
    public var syncVersion: Int64

    /// What a sensor can say of its skin contact (Heart Rate Measurement flags bits 1–2, docs/reference/GATT-HEALTH.md §9).
    public static let contactNames = ["notSupported", "notDetected", "detected"]

    public init(
        beatsPerMinute: Double, time: Double, sensorContact: String, energyExpended: UInt16? = nil, rrIntervals: [UInt16] = [],
        device: [String: String] = [:], person: String? = nil, syncIdentifier: String, syncVersion: Int64 = 1
    ) {
        self.beatsPerMinute = beatsPerMinute
        self.time = time
        self.sensorContact = sensorContact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
        self.device = device
        self.person = person
        self.syncIdentifier = syncIdentifier
        self.syncVersion = syncVersion
    }
}
