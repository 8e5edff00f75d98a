import BlueZ
import GATTHealth

/// Who a cuff is: its address plus what it says about itself in Device Information (read once per device
/// and stored with every sample, docs/reference/GATT-HEALTH.md §11), and the key that names it across gateways.
public struct DeviceIdentity: Hashable, Sendable, Codable {
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

    enum CodingKeys: String, CodingKey {
        case address, name, manufacturer, model, serial, firmware, hardware, software, systemID
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        address = try container.decode(BluetoothAddress.self, forKey: .address)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        manufacturer = try container.decodeIfPresent(String.self, forKey: .manufacturer)
        model = try container.decodeIfPresent(String.self, forKey: .model)
        serial = try container.decodeIfPresent(String.self, forKey: .serial)
        firmware = try container.decodeIfPresent(String.self, forKey: .firmware)
        hardware = try container.decodeIfPresent(String.self, forKey: .hardware)
        software = try container.decodeIfPresent(String.self, forKey: .software)
        systemID = try container.decodeIfPresent(String.self, forKey: .systemID).flatMap(SystemID.init(eui64:))
    }

    /// The System ID is written as its EUI-64 (16 hex digits).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(manufacturer, forKey: .manufacturer)
        try container.encodeIfPresent(model, forKey: .model)
        try container.encodeIfPresent(serial, forKey: .serial)
        try container.encodeIfPresent(firmware, forKey: .firmware)
        try container.encodeIfPresent(hardware, forKey: .hardware)
        try container.encodeIfPresent(software, forKey: .software)
        try container.encodeIfPresent(systemID?.eui64, forKey: .systemID)
    }

    /// The quirk this device needs, from the quirk table (docs/reference/GATT-HEALTH.md §13.5).
    public var quirk: BloodPressureQuirk? { name.flatMap(BloodPressureQuirk.forAdvertisedName) }
}
