import BlueZ
import GATTHealth

/// Who a cuff is: its address plus what it says about itself in Device Information (read once per device
/// and stored with every sample, GATT-HEALTH.md §11), and the key that names it across gateways.
public struct DeviceIdentity: Hashable, Sendable {
    public var address: BluetoothAddress
    /// The advertised name (device quirks are looked up by it).
    public var name: String?
    public var manufacturer: String?
    public var model: String?
    public var serial: String?
    public var firmware: String?
    public var hardware: String?
    public var software: String?
    /// System ID 0x2A23: an EUI-64, the most stable identity a cuff offers.
    public var systemID: SystemID?

    public init(
        address: BluetoothAddress, name: String? = nil, manufacturer: String? = nil, model: String? = nil,
        serial: String? = nil, firmware: String? = nil, hardware: String? = nil, software: String? = nil,
        systemID: SystemID? = nil
    ) {
        self.address = address
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.serial = serial
        self.firmware = firmware
        self.hardware = hardware
        self.software = software
        self.systemID = systemID
    }

    /// A stable name for the device: its System ID when it has one, else manufacturer + model + serial when
    /// it reports a serial, else its Bluetooth address (a bonded cuff's identity address).
    public var stableKey: String {
        if let systemID { return "eui64:" + systemID.eui64 }
        if let serial, !serial.isEmpty {
            return "serial:" + [manufacturer ?? "", model ?? "", serial].joined(separator: "/")
        }
        return "address:" + address.description
    }

    /// The quirk this device needs, from the quirk table (GATT-HEALTH.md §13.5).
    public var quirk: BloodPressureQuirk? { name.flatMap(BloodPressureQuirk.forAdvertisedName) }
}
