/// Intermediate Cuff Pressure 0x2A36 (notify): the cuff pressure while a measurement runs (gatt-xml
/// `intermediate_cuff_pressure.xml`; docs/reference/GATT-HEALTH.md §5). Same flags and field order as 0x2A35; the
/// pressure sits in the Systolic slot and the Diastolic and MAP slots are unused — ignored on decode
/// whatever they hold (Nordic's own tests send 0x0000 there), written as NaN on encode as the GSS says.
public struct IntermediateCuffPressure: Hashable, Sendable, QuirkAwareValue {
    public static let characteristic = HealthCharacteristic.intermediateCuffPressure

    /// The unit flag (bit 0).
    public var unit: PressureUnit
    /// The current cuff pressure.
    public var cuffPressure: MedFloat16
    /// Flag bit 1.
    public var timeStamp: DateTime?
    /// Flag bit 2.
    public var pulseRate: MedFloat16?
    /// Flag bit 3.
    public var userID: UInt8?
    /// Flag bit 4.
    public var status: BloodPressureMeasurementStatus?
    /// Flag bits 5–7 (RFU) as received.
    public var reservedFlags: UInt8
    /// Bytes after the last announced field: ignored, and counted here.
    public var trailingByteCount: Int

    /// A progress value to encode.
    public init(
        unit: PressureUnit = .millimetresOfMercury, cuffPressure: MedFloat16, timeStamp: DateTime? = nil,
        pulseRate: MedFloat16? = nil, userID: UInt8? = nil, status: BloodPressureMeasurementStatus? = nil,
        reservedFlags: UInt8 = 0
    ) {
        self.unit = unit
        self.cuffPressure = cuffPressure
        self.timeStamp = timeStamp
        self.pulseRate = pulseRate
        self.userID = userID
        self.status = status
        self.reservedFlags = reservedFlags & BloodPressureFrame.reservedFlagBits
        trailingByteCount = 0
    }

    @inlinable @inline(__always)
    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        try self.init(decoding: bytes, quirk: nil)
    }

    /// Decodes a value from a device with a known ``BloodPressureQuirk``.
    @inlinable @inline(__always)
    public init(decoding bytes: UnsafeRawBufferPointer, quirk: BloodPressureQuirk?) throws(GATTDecodingError) {
        let frame = try BloodPressureFrame(decoding: bytes, as: Self.characteristic, quirk: quirk)
        unit = frame.unit
        cuffPressure = frame.values.0
        timeStamp = frame.timeStamp
        pulseRate = frame.pulseRate
        userID = frame.userID
        status = frame.status
        reservedFlags = frame.reservedFlags
        trailingByteCount = frame.trailingByteCount
    }

    public func encoded() -> [UInt8] {
        BloodPressureFrame(
            unit: unit, values: (cuffPressure, MedFloat16(.nan), MedFloat16(.nan)), timeStamp: timeStamp,
            pulseRate: pulseRate, userID: userID, status: status, reservedFlags: reservedFlags
        ).encoded()
    }
}
