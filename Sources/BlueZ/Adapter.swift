import DBus

/// An `org.bluez.Adapter1` as the mirror last saw it (`doc/adapter-api.txt`, BlueZ 5.66).
public struct Adapter: Hashable, Sendable {
    /// `/org/bluez/hci0`: for calls only, never as a key (the index changes when adapters come and go).
    public var path: DBusObjectPath
    /// `Address`: the adapter's Bluetooth address.
    public var address: BluetoothAddress
    /// `Name`: the system name (hostname by default).
    public var name: String?
    /// `Alias`: the friendly name, `Name` unless set.
    public var alias: String?
    /// `Powered`: "Switch an adapter on or off. This will also set the appropriate connectable state of
    /// the controller."
    public var powered: Bool
    /// `PowerState` (5.66): `on`, `off`, `off-enabling`, `on-disabling`, `off-blocked` (rfkill).
    public var powerState: String?
    /// `Discovering`: whether a discovery session of any client is active.
    public var discovering: Bool

    /// The interface name of `path`, `hci0`.
    public var interfaceName: String { String(path.text.split(separator: "/").last ?? "") }

    /// An adapter with these properties, for a central that is not bluetoothd's mirror (an in-memory one in tests).
    public init(path: DBusObjectPath, address: BluetoothAddress, powered: Bool = true) {
        self.path = path
        self.address = address
        self.powered = powered
        discovering = false
    }

    init?(path: DBusObjectPath, _ properties: DBusProperties) {
        guard let text = try? properties.property("Address", as: String.self), let address = BluetoothAddress(text) else { return nil }
        self.path = path
        self.address = address
        name = try? properties.property("Name")
        alias = try? properties.property("Alias")
        powered = (try? properties.property("Powered", as: Bool.self)) ?? false
        powerState = try? properties.property("PowerState")
        discovering = (try? properties.property("Discovering", as: Bool.self)) ?? false
    }
}
