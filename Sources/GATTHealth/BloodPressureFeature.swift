/// Blood Pressure Feature 0x2A49 (read, uint16): what the cuff can detect and report (gatt-xml
/// `blood_pressure_feature.xml` for bits 0–5; bits 6–8 per BPS 1.1 as read by Nordic nRF Toolbox's
/// `BloodPressureFeatureParser` and StanfordSpezi's `BloodPressureTests`; docs/reference/GATT-HEALTH.md §6).
public struct BloodPressureFeature: OptionSet, Hashable, Sendable, GATTCharacteristicValue {
    public static let characteristic = HealthCharacteristic.bloodPressureFeature

    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let bodyMovementDetection = Self(rawValue: 1 << 0)
    public static let cuffFitDetection = Self(rawValue: 1 << 1)
    public static let irregularPulseDetection = Self(rawValue: 1 << 2)
    public static let pulseRateRangeDetection = Self(rawValue: 1 << 3)
    public static let measurementPositionDetection = Self(rawValue: 1 << 4)
    /// Bit 5 clear: the cuff keeps a single bond, so pairing cuffd unpairs the phone app.
    public static let multipleBond = Self(rawValue: 1 << 5)
    /// BPS 1.1: records carry an E2E-CRC.
    public static let e2eCRC = Self(rawValue: 1 << 6)
    /// BPS 1.1: users are managed through the User Data Service.
    public static let userDataService = Self(rawValue: 1 << 7)
    /// BPS 1.1: records carry a User Facing Time.
    public static let userFacingTime = Self(rawValue: 1 << 8)

    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        try requireLength(2, of: bytes, for: Self.characteristic)
        var reader = ByteReader(bytes)
        rawValue = reader.uint16()
    }

    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 2)
        writer.uint16(rawValue)
        return writer.bytes
    }
}
