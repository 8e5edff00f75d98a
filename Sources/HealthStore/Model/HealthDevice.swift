/// The device that produced a sample: HealthKit's `HKDevice` fields (HealthKit: `HKDevice`) plus a
/// stable cross-gateway identity and a device type (docs/reference/HEALTH-STORE.md §2).
///
/// `localIdentifier` is per host in HealthKit; on a gateway it holds the BLE identity address.
/// ``identity`` is the stable key (DIS System ID EUI-64, or manufacturer + serial number) used to
/// find a device's samples. `udiDeviceIdentifier` holds only the device-identifier part of an FDA
/// UDI: `HKMetadata.h` says the production identifier should not be persisted.
public struct HealthDevice: Sendable, Hashable, Codable {
    /// Stable identity across gateways and reconnections (e.g. System ID `C4F312FFFE53F2C9`).
    public var identity: String
    /// Kind of device, e.g. `bloodPressureMonitor` (Health Connect has no BP-monitor type).
    public var deviceType: String?
    /// Device name (DIS / GAP).
    public var name: String?
    /// Manufacturer Name String (DIS 0x2A29).
    public var manufacturer: String?
    /// Model Number String (DIS 0x2A24).
    public var model: String?
    /// Serial Number String (DIS 0x2A25).
    public var serialNumber: String?
    /// Hardware Revision String (DIS 0x2A27).
    public var hardwareVersion: String?
    /// Firmware Revision String (DIS 0x2A26).
    public var firmwareVersion: String?
    /// Software Revision String (DIS 0x2A28).
    public var softwareVersion: String?
    /// Per-host identifier; the BLE address on a gateway.
    public var localIdentifier: String?
    /// Device-identifier part of an FDA UDI.
    public var udiDeviceIdentifier: String?

    /// A device; only ``identity`` is required.
    public init(
        identity: String, deviceType: String? = nil, name: String? = nil, manufacturer: String? = nil,
        model: String? = nil, serialNumber: String? = nil, hardwareVersion: String? = nil,
        firmwareVersion: String? = nil, softwareVersion: String? = nil, localIdentifier: String? = nil,
        udiDeviceIdentifier: String? = nil
    ) {
        self.identity = identity
        self.deviceType = deviceType
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.serialNumber = serialNumber
        self.hardwareVersion = hardwareVersion
        self.firmwareVersion = firmwareVersion
        self.softwareVersion = softwareVersion
        self.localIdentifier = localIdentifier
        self.udiDeviceIdentifier = udiDeviceIdentifier
    }
}
