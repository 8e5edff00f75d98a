/// A UTF-8 string characteristic of the Device Information Service 0x180A: Manufacturer Name 0x2A29,
/// Model Number 0x2A24, Serial Number 0x2A25, Hardware 0x2A27, Firmware 0x2A26 and Software 0x2A28
/// Revision (gatt-xml `org.bluetooth.service.device_information.xml`; docs/reference/GATT-HEALTH.md §11).
///
/// Some devices pad with NUL bytes: trailing NULs are dropped. Invalid UTF-8 is repaired with U+FFFD
/// rather than refused, so a device's provenance is never lost to one bad byte.
public struct DeviceInformationString: Hashable, Sendable {
    /// The characteristics this type decodes.
    public static let characteristics: Set<HealthCharacteristic> = [
        .manufacturerNameString, .modelNumberString, .serialNumberString,
        .hardwareRevisionString, .firmwareRevisionString, .softwareRevisionString,
    ]

    public var value: String

    /// A string to encode.
    public init(_ value: String) { self.value = value }

    /// Decodes the string; never fails (an empty value is an empty string).
    public init(decoding bytes: some Collection<UInt8>) {
        var end = bytes.endIndex
        while end > bytes.startIndex, bytes[bytes.index(end, offsetBy: -1)] == 0 {
            end = bytes.index(end, offsetBy: -1)
        }
        value = String(decoding: bytes[..<end], as: UTF8.self)
    }

    public func encoded() -> [UInt8] { Array(value.utf8) }
}
