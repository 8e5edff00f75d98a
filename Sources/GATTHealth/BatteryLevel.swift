/// Battery Level 0x2A19 of the Battery Service 0x180F (uint8 percent, 0–100; other values RFU and kept
/// raw; docs/reference/GATT-HEALTH.md §11).
public struct BatteryLevel: Hashable, Sendable, GATTCharacteristicValue {
    public static let characteristic = HealthCharacteristic.batteryLevel

    /// The byte as sent.
    public var rawValue: UInt8

    /// A value to encode.
    public init(percent: UInt8) { rawValue = percent }

    /// The charge in percent, or nil for an RFU value above 100.
    public var percent: UInt8? { rawValue <= 100 ? rawValue : nil }

    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        try requireLength(1, of: bytes, for: Self.characteristic)
        rawValue = bytes[0]
    }

    public func encoded() -> [UInt8] { [rawValue] }
}
