/// Enhanced Blood Pressure Measurement 0x2B34 (BPS 1.1): 0x2A35 with uint32 time stamps counted from
/// an Epoch Start, and a User Facing Time. Layout in ``EnhancedBloodPressureFrame`` (docs/reference/GATT-HEALTH.md §7).
public struct EnhancedBloodPressureMeasurement: Hashable, Sendable, GATTCharacteristicValue {
    public static let characteristic = HealthCharacteristic.enhancedBloodPressureMeasurement

    public var unit: PressureUnit
    /// The epoch of ``timeStamp`` and ``userFacingTime`` (flag bit 6).
    public var epochStart: EpochStart
    public var systolic: MedFloat16
    public var diastolic: MedFloat16
    public var meanArterialPressure: MedFloat16
    /// Seconds since ``epochStart``, UTC (flag bit 1).
    public var timeStamp: UInt32?
    public var pulseRate: MedFloat16?
    public var userID: UInt8?
    public var status: BloodPressureMeasurementStatus?
    /// Seconds since ``epochStart`` on the clock the user sees (flag bit 5).
    public var userFacingTime: UInt32?
    /// Flag bit 7 (RFU) as received.
    public var reservedFlags: UInt8
    /// Bytes after the last announced field: ignored, and counted here.
    public var trailingByteCount: Int

    /// A measurement to encode.
    public init(
        unit: PressureUnit = .millimetresOfMercury, epochStart: EpochStart = .year2000, systolic: MedFloat16,
        diastolic: MedFloat16, meanArterialPressure: MedFloat16, timeStamp: UInt32? = nil,
        pulseRate: MedFloat16? = nil, userID: UInt8? = nil, status: BloodPressureMeasurementStatus? = nil,
        userFacingTime: UInt32? = nil, reservedFlags: UInt8 = 0
    ) {
        self.unit = unit
        self.epochStart = epochStart
        self.systolic = systolic
        self.diastolic = diastolic
        self.meanArterialPressure = meanArterialPressure
        self.timeStamp = timeStamp
        self.pulseRate = pulseRate
        self.userID = userID
        self.status = status
        self.userFacingTime = userFacingTime
        self.reservedFlags = reservedFlags & EnhancedBloodPressureFrame.reservedFlagBits
        trailingByteCount = 0
    }

    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        let frame = try EnhancedBloodPressureFrame(decoding: bytes, as: Self.characteristic, pressureCount: 3)
        unit = PressureUnit(flags: frame.flags)
        epochStart = EpochStart(flags: frame.flags)
        (systolic, diastolic, meanArterialPressure) = frame.values
        timeStamp = frame.timeStamp
        pulseRate = frame.pulseRate
        userID = frame.userID
        status = frame.status
        userFacingTime = frame.userFacingTime
        reservedFlags = frame.flags & EnhancedBloodPressureFrame.reservedFlagBits
        trailingByteCount = frame.trailingByteCount
    }

    public func encoded() -> [UInt8] {
        EnhancedBloodPressureFrame(
            unit: unit, epochStart: epochStart, values: (systolic, diastolic, meanArterialPressure),
            timeStamp: timeStamp, pulseRate: pulseRate, userID: userID, status: status,
            userFacingTime: userFacingTime, reservedFlags: reservedFlags
        ).encoded(pressureCount: 3)
    }
}
