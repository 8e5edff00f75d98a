import DBus

/// An `org.bluez.GattCharacteristic1` of a remote device (`doc/gatt-api.txt`, BlueZ 5.66), with the
/// service it belongs to.
public struct GattCharacteristic: Hashable, Sendable {
    /// `…/serviceNNNN/charNNNN`: numbered by ATT handle, so for calls only (docs/reference/BLUEZ-DBUS.md §1).
    public var path: DBusObjectPath
    public var device: DeviceID
    /// `UUID` of the characteristic, lower-case 128-bit.
    public var uuid: String
    /// `UUID` of the service that holds it.
    public var serviceUUID: String
    /// `Flags`: `read`, `write`, `write-without-response`, `notify`, `indicate`, `authenticated-signed-writes`,
    /// `extended-properties`, `reliable-write`, `writable-auxiliaries`, `encrypt-read`, `encrypt-write`, ….
    public var flags: Set<String>
    /// `Notifying`: notifications or indications are enabled (by any client).
    public var notifying: Bool

    /// Whether `StartNotify` applies: 5.66 accepts `notify` or `indicate` (docs/reference/BLUEZ-DBUS.md §7).
    public var canNotify: Bool { flags.contains("notify") || flags.contains("indicate") }
    public var isReadable: Bool { flags.contains("read") || flags.contains("encrypt-read") || flags.contains("encrypt-authenticated-read") }
    public var isWritable: Bool { flags.contains("write") || flags.contains("encrypt-write") || flags.contains("encrypt-authenticated-write") }

    /// A characteristic with these properties: as the mirror reads them, or as an in-memory central (tests) has them.
    public init(path: DBusObjectPath, device: DeviceID, uuid: String, serviceUUID: String, flags: Set<String>, notifying: Bool = false) {
        self.path = path
        self.device = device
        self.uuid = uuid.lowercased()
        self.serviceUUID = serviceUUID.lowercased()
        self.flags = flags
        self.notifying = notifying
    }
}
