/// Enhanced Intermediate Cuff Pressure 0x2B35 (BPS 1.1): one SFLOAT, no unused Diastolic/MAP pair, then
/// the tail of 0x2B34. Layout in ``EnhancedBloodPressureFrame`` (docs/reference/GATT-HEALTH.md §7).
public struct EnhancedIntermediateCuffPressure: Hashable, Sendable, GATTCharacteristicValue {
    public static let characteristic = HealthCharacteristic.enhancedIntermediateCuffPressure

    public var unit: PressureUnit
    public var epochStart: EpochStart
    public var cuffPressure: MedFloat16
    public var timeStamp: UInt32?
    public var pulseRate: MedFloat16?
    public var userID: UInt8?
    public var status: BloodPressureMeasurementStatus?
    public var userFacingTime: UInt32?
    public var reservedFlags: UInt8
    public var trailingByteCount: Int

    /// A progress value to encode.
    public init(
        unit: PressureUnit = .millimetresOfMercury, epochStart: EpochStart = .year2000, cuffPressure: MedFloat16,
        timeStamp: UInt32? = nil, pulseRate: MedFloat16? = nil, userID: UInt8? = nil,
        status: BloodPressureMeasurementStatus? = nil, userFacingTime: UInt32? = nil, reservedFlags: UInt8 = 0
    ) {
        self.unit = unit
        self.epochStart = epochStart
        self.cuffPressure = cuffPressure
        self.timeStamp = timeStamp
        self.pulseRate = pulseRate
        self.userID = userID
        self.status = status
        self.userFacingTime = userFacingTime
        self.reservedFlags = reservedFlags & EnhancedBloodPressureFrame.reservedFlagBits
        trailingByteCount = 0
    }

    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        let frame = try EnhancedBloodPressureFrame(decoding: bytes, as: Self.characteristic, pressureCount: 1)
        unit = PressureUnit(flags: frame.flags)
        epochStart = EpochStart(flags: frame.flags)
        cuffPressure = frame.values.0
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
            unit: unit, epochStart: epochStart, values: (cuffPressure, cuffPressure, cuffPressure),
            timeStamp: timeStamp, pulseRate: pulseRate, userID: userID, status: status,
            userFacingTime: userFacingTime, reservedFlags: reservedFlags
        ).encoded(pressureCount: 1)
    }
}
