/// Heart Rate Control Point 0x2A39 (write, uint8; gatt-xml `heart_rate_control_point.xml`;
/// docs/reference/GATT-HEALTH.md §9). Only 0x01 is defined; a server answers any other value with ATT error 0x80
/// "Control Point value not supported" (google/bumble `heart_rate_service.py`).
public struct HeartRateControlPoint: RawRepresentable, Hashable, Sendable, GATTCharacteristicValue {
    public static let characteristic = HealthCharacteristic.heartRateControlPoint

    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Resets Energy Expended to 0.
    public static let resetEnergyExpended = Self(rawValue: 0x01)

    /// The ATT error a server answers an RFU value with.
    public static let valueNotSupportedATTError: UInt8 = 0x80

    /// True for a value the service defines.
    public var isSupported: Bool { self == .resetEnergyExpended }

    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        try requireLength(1, of: bytes, for: Self.characteristic)
        rawValue = bytes[0]
    }

    public func encoded() -> [UInt8] { [rawValue] }
}
