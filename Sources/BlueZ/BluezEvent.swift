import FoundationEssentials

/// What the mirror saw change, in the order bluetoothd reported it, and the writes made through the client. The Gateway turns these into cuff
/// sessions; every event has already been applied to the mirror when it is delivered.
public enum BluezEvent: Sendable {
    /// bluetoothd came onto the bus (the mirror is rebuilt; registrations are being redone) or left it (every
    /// link, registration and notify session is gone; docs/reference/BLUEZ-DBUS.md §10).
    case availabilityChanged(Bool)
    case adapterChanged(Adapter)
    case adapterRemoved(BluetoothAddress)
    /// A device appeared (`changed` then holds every property) or some of its properties changed.
    case deviceChanged(Device, changed: Set<String>)
    case deviceRemoved(DeviceID)
    /// GATT services or characteristics beneath the device were exported or withdrawn.
    case servicesChanged(DeviceID)
    /// Our `StartNotify` on characteristic `uuid` succeeded: its values will arrive as ``value(_:uuid:bytes:receivedAt:)``.
    case notifying(DeviceID, uuid: String)
    /// A notification or indication, or a read, of characteristic `uuid`: `PropertiesChanged` on `Value`,
    /// which bluetoothd emits for every packet even when the bytes repeat (docs/reference/BLUEZ-DBUS.md §7).
    case value(DeviceID, uuid: String, bytes: [UInt8], receivedAt: Date)
    /// A write made through the client, announced as it goes out, so before anything the device sends in answer;
    /// announced again, with ``GattWrite/refusal``, when it is refused. Not a change of the mirror: what a capture
    /// records of the host's part of the conversation (docs/capture.md).
    case write(DeviceID, GattWrite)
}
