import DBus

/// An `org.bluez.GattDescriptor1` of a remote device (`doc/gatt-api.txt`, BlueZ 5.66), with the characteristic it
/// belongs to: what a capture's walk of the GATT database lists and reads (docs/capture.md).
public struct GattDescriptor: Hashable, Sendable {
    /// `…/serviceNNNN/charNNNN/descNNNN`: numbered by ATT handle, so for calls only (docs/reference/BLUEZ-DBUS.md §1).
    public var path: DBusObjectPath
    public var device: DeviceID
    /// `UUID` of the descriptor, lower-case 128-bit.
    public var uuid: String
    /// The path of the characteristic that holds it.
    public var characteristic: DBusObjectPath
    /// `Flags`: `read`, `write`, `encrypt-read`, ….
    public var flags: Set<String>

    public init(path: DBusObjectPath, device: DeviceID, uuid: String, characteristic: DBusObjectPath, flags: Set<String>) {
        self.path = path
        self.device = device
        self.uuid = uuid.lowercased()
        self.characteristic = characteristic
        self.flags = flags
    }

    /// The Client Characteristic Configuration 0x2902, which bluetoothd writes itself for `StartNotify` (§7).
    public var isClientConfiguration: Bool { uuid == "00002902-0000-1000-8000-00805f9b34fb" }
}
