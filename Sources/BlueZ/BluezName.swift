import DBus

/// The names bluetoothd 5.66 uses on the bus (`doc/adapter-api.txt`, `doc/device-api.txt`,
/// `doc/gatt-api.txt`, `doc/agent-api.txt`; docs/reference/BLUEZ-DBUS.md §1).
public enum BluezName {
    /// bluetoothd's well-known name.
    public static let service = "org.bluez"
    /// `AgentManager1` lives here.
    public static let root: DBusObjectPath = "/org/bluez"

    public static let adapter = "org.bluez.Adapter1"
    public static let device = "org.bluez.Device1"
    public static let gattService = "org.bluez.GattService1"
    public static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    public static let gattDescriptor = "org.bluez.GattDescriptor1"
    public static let gattManager = "org.bluez.GattManager1"
    public static let gattProfile = "org.bluez.GattProfile1"
    public static let agentManager = "org.bluez.AgentManager1"
    public static let agent = "org.bluez.Agent1"
}
