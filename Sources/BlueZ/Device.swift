import DBus

/// An `org.bluez.Device1` as the mirror last saw it (`doc/device-api.txt`, BlueZ 5.66).
public struct Device: Hashable, Sendable {
    /// `/org/bluez/hci0/dev_C4_F3_12_53_F2_C9`: for calls only.
    public var path: DBusObjectPath
    public var id: DeviceID
    /// `AddressType`: `public` or `random`.
    public var addressType: String?
    /// `Name`: the remote name from advertising or GAP; absent until known.
    public var name: String?
    /// `Alias`: `Name` unless the user set one.
    public var alias: String?
    /// `UUIDs`: the service UUIDs the device advertises or has, lower-case 128-bit.
    public var uuids: [String]
    /// `Paired`: keys were exchanged.
    public var paired: Bool
    /// `Bonded` (5.65+): the keys are stored, so the bond survives restarts.
    public var bonded: Bool
    /// `Trusted`: "Indicates if the remote is seen as trusted." A trusted LE device keeps auto-connect
    /// when it disconnects (docs/reference/BLUEZ-DBUS.md §3, §4).
    public var trusted: Bool
    /// `Blocked`: connections from the device are refused.
    public var blocked: Bool
    /// `Connected`: the link is up (5.66 has no `Disconnected` signal: watch this turning false).
    public var connected: Bool
    /// `ServicesResolved`: "Indicate whether or not service discovery has been resolved." Its objects are
    /// normally exported before it turns true, but not always (docs/reference/BLUEZ-DBUS.md §6).
    public var servicesResolved: Bool
    /// `RSSI`: signal strength of the last advertisement, while discovering.
    public var rssi: Int16?
    /// `ManufacturerData`: the bytes after each company identifier, from the advertisements bluetoothd saw while
    /// discovering (what some cuffs are told apart by, docs/compatibility.md).
    public var manufacturerData: [UInt16: [UInt8]]

    /// Whether bluetoothd keeps the device after discovery ends: paired or trusted devices are not
    /// "temporary" (docs/reference/BLUEZ-DBUS.md §2).
    public var isTemporary: Bool { !paired && !trusted }

    /// A device with these properties, for a central that is not bluetoothd's mirror (an in-memory one in tests);
    /// `Alias` is the name, `Bonded` follows `Paired`.
    public init(
        path: DBusObjectPath, id: DeviceID, name: String? = nil, uuids: [String] = [], manufacturerData: [UInt16: [UInt8]] = [:],
        paired: Bool = false, trusted: Bool = false, connected: Bool = false, servicesResolved: Bool = false
    ) {
        self.path = path
        self.id = id
        self.name = name
        alias = name
        self.uuids = uuids.map { $0.lowercased() }
        self.manufacturerData = manufacturerData
        self.paired = paired
        bonded = paired
        self.trusted = trusted
        blocked = false
        self.connected = connected
        self.servicesResolved = servicesResolved
    }

    init?(path: DBusObjectPath, _ properties: DBusProperties, adapter: BluetoothAddress) {
        guard let text = try? properties.property("Address", as: String.self), let address = BluetoothAddress(text) else { return nil }
        self.path = path
        id = DeviceID(adapter: adapter, address: address)
        addressType = try? properties.property("AddressType")
        name = try? properties.property("Name")
        alias = try? properties.property("Alias")
        uuids = ((try? properties.property("UUIDs", as: [String].self)) ?? nil)?.map { $0.lowercased() } ?? []
        paired = (try? properties.property("Paired", as: Bool.self)) ?? false
        bonded = ((try? properties.property("Bonded", as: Bool.self)) ?? nil) ?? paired
        trusted = (try? properties.property("Trusted", as: Bool.self)) ?? false
        blocked = (try? properties.property("Blocked", as: Bool.self)) ?? false
        connected = (try? properties.property("Connected", as: Bool.self)) ?? false
        servicesResolved = (try? properties.property("ServicesResolved", as: Bool.self)) ?? false
        rssi = try? properties.property("RSSI")
        let companies = ((try? properties.property("ManufacturerData", as: [UInt16: DBusVariant].self)) ?? nil) ?? [:]
        manufacturerData = companies.compactMapValues { try? $0.decode([UInt8].self) }
    }
}
