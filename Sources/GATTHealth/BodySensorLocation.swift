/// Body Sensor Location 0x2A38 (read, uint8; gatt-xml `body_sensor_location.xml`; the same numbers as
/// HealthKit's `HKHeartRateSensorLocation`; docs/reference/GATT-HEALTH.md §9). Values 7–255 are RFU and kept raw.
public struct BodySensorLocation: RawRepresentable, Hashable, Sendable, GATTCharacteristicValue {
    public static let characteristic = HealthCharacteristic.bodySensorLocation

    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let other = Self(rawValue: 0)
    public static let chest = Self(rawValue: 1)
    public static let wrist = Self(rawValue: 2)
    public static let finger = Self(rawValue: 3)
    public static let hand = Self(rawValue: 4)
    public static let earLobe = Self(rawValue: 5)
    public static let foot = Self(rawValue: 6)

    /// The location's name, or nil for an RFU value.
    public var name: String? {
        let names = ["other", "chest", "wrist", "finger", "hand", "earLobe", "foot"]
        return Int(rawValue) < names.count ? names[Int(rawValue)] : nil
    }

    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        try requireLength(1, of: bytes, for: Self.characteristic)
        rawValue = bytes[0]
    }

    public func encoded() -> [UInt8] { [rawValue] }
}
