/// Blood Pressure Measurement 0x2A35 (indicate): one finished measurement (gatt-xml
/// `blood_pressure_measurement.xml`; docs/reference/GATT-HEALTH.md §4). Layout in ``BloodPressureFrame``.
///
/// Nothing is judged here: a NaN systolic (an aborted measurement, vectors BPM-R2/R3), a diastolic above
/// the systolic, or a MAP of 0 (Beurer) decode as sent; the Gateway decides what they mean.
public struct BloodPressureMeasurement: Hashable, Sendable, QuirkAwareValue {
    public static let characteristic = HealthCharacteristic.bloodPressureMeasurement

    /// The unit flag (bit 0) of every pressure field.
    public var unit: PressureUnit
    public var systolic: MedFloat16
    public var diastolic: MedFloat16
    public var meanArterialPressure: MedFloat16
    /// The cuff's local clock when it took the measurement (flag bit 1).
    public var timeStamp: DateTime?
    /// Beats per minute (flag bit 2).
    public var pulseRate: MedFloat16?
    /// 0–254 a user of the cuff, 255 ``unknownUser`` (flag bit 3).
    public var userID: UInt8?
    /// Flag bit 4.
    public var status: BloodPressureMeasurementStatus?
    /// Flag bits 5–7 (RFU) as received; they do not change the layout.
    public var reservedFlags: UInt8
    /// Bytes after the last announced field: ignored, and counted here.
    public var trailingByteCount: Int

    /// User ID 255: "Unknown User", never to be merged with a real user.
    public static let unknownUser: UInt8 = 255

    /// A measurement to encode.
    public init(
        unit: PressureUnit = .millimetresOfMercury, systolic: MedFloat16, diastolic: MedFloat16,
        meanArterialPressure: MedFloat16, timeStamp: DateTime? = nil, pulseRate: MedFloat16? = nil,
        userID: UInt8? = nil, status: BloodPressureMeasurementStatus? = nil, reservedFlags: UInt8 = 0
    ) {
        self.unit = unit
        self.systolic = systolic
        self.diastolic = diastolic
        self.meanArterialPressure = meanArterialPressure
        self.timeStamp = timeStamp
        self.pulseRate = pulseRate
        self.userID = userID
        self.status = status
        self.reservedFlags = reservedFlags & BloodPressureFrame.reservedFlagBits
        trailingByteCount = 0
    }

    /// Decodes a value as the spec lays it out.
    @inlinable @inline(__always)
    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        try self.init(decoding: bytes, quirk: nil)
    }

    /// Decodes a value from a device with a known ``BloodPressureQuirk``.
    @inlinable @inline(__always)
    public init(decoding bytes: UnsafeRawBufferPointer, quirk: BloodPressureQuirk?) throws(GATTDecodingError) {
        let frame = try BloodPressureFrame(decoding: bytes, as: Self.characteristic, quirk: quirk)
        unit = frame.unit
        (systolic, diastolic, meanArterialPressure) = frame.values
        timeStamp = frame.timeStamp
        pulseRate = frame.pulseRate
        userID = frame.userID
        status = frame.status
        reservedFlags = frame.reservedFlags
        trailingByteCount = frame.trailingByteCount
    }

    /// True when systolic or diastolic is a special value: the cuff reports a failed measurement.
    public var isFailedMeasurement: Bool { !systolic.isFinite || !diastolic.isFinite }

    public func encoded() -> [UInt8] {
        BloodPressureFrame(
            unit: unit, values: (systolic, diastolic, meanArterialPressure), timeStamp: timeStamp,
            pulseRate: pulseRate, userID: userID, status: status, reservedFlags: reservedFlags
        ).encoded()
    }
}
