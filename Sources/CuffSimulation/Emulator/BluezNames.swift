import DBus

/// The names bluetoothd 5.66 uses on the bus (`doc/adapter-api.txt`, `doc/device-api.txt`,
/// `doc/gatt-api.txt`, `doc/agent-api.txt`; docs/reference/BLUEZ-DBUS.md §1).
enum Bluez {
    static let serviceName = "org.bluez"
    static let root: DBusObjectPath = "/org/bluez"
    static let adapterPath: DBusObjectPath = "/org/bluez/hci0"

    static let adapter = "org.bluez.Adapter1"
    static let device = "org.bluez.Device1"
    static let gattService = "org.bluez.GattService1"
    static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    static let gattDescriptor = "org.bluez.GattDescriptor1"
    static let gattManager = "org.bluez.GattManager1"
    static let gattProfile = "org.bluez.GattProfile1"
    static let agentManager = "org.bluez.AgentManager1"
    static let agent = "org.bluez.Agent1"
}

/// `org.bluez.Error.*` replies, with the messages bluetoothd sends (`src/error.c`,
/// docs/reference/BLUEZ-DBUS.md §12; the `le-connection-*` reasons of §3 go in the message).
enum BluezError {
    static func make(_ name: String, _ message: String) -> DBusError {
        DBusError(DBusError.Name(rawValue: "org.bluez.Error." + name), message)
    }

    static func invalidArguments(_ message: String = "Invalid arguments in method call") -> DBusError { make("InvalidArguments", message) }
    static let notReady = make("NotReady", "Resource Not Ready")
    static let inProgress = make("InProgress", "In Progress")
    static let alreadyConnected = make("AlreadyConnected", "Already Connected")
    static let notConnected = make("NotConnected", "Not Connected")
    static let alreadyExists = make("AlreadyExists", "Already Exists")
    static func doesNotExist(_ message: String = "Does Not Exist") -> DBusError { make("DoesNotExist", message) }
    static func notPermitted(_ message: String) -> DBusError { make("NotPermitted", message) }
    static func notSupported(_ message: String = "Operation is not supported") -> DBusError { make("NotSupported", message) }
    static func failed(_ message: String) -> DBusError { make("Failed", message) }
    static let authenticationFailed = make("AuthenticationFailed", "Authentication Failed")
    static let authenticationCanceled = make("AuthenticationCanceled", "Authentication Canceled")
    static let authenticationRejected = make("AuthenticationRejected", "Authentication Rejected")
}
