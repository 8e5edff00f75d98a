import DBus

/// What the client keeps registered with bluetoothd, and what it has done on the current bluetoothd: all
/// of it is lost when bluetoothd restarts and must be redone, in the order of docs/reference/BLUEZ-DBUS.md §10.
struct Registrations {
    /// The capability the agent is (or is to be) registered with.
    var agentCapability: AgentCapability = .noInputNoOutput
    var agentRegistered = false
    /// Adapters whose `GattManager1` holds our GattProfile1 application.
    var applicationAdapters: Set<BluetoothAddress> = []
    /// Characteristics to keep notifications or indications enabled on, by device and UUID: the standing
    /// wish, whatever bluetoothd currently exports.
    var notifyIntents: [DeviceID: Set<String>] = [:]
    /// The same for a capture (docs/capture.md): sessions on top of the standing wish, which never count as the
    /// device's notifications being up (``BluezClient/isNotifying(_:)``).
    var captureIntents: [DeviceID: Set<String>] = [:]
    /// Characteristic objects with a `StartNotify` session of ours on this bluetoothd.
    var notifyingPaths: Set<DBusObjectPath> = []
    /// Characteristic objects whose `StartNotify` is under way.
    var startingPaths: Set<DBusObjectPath> = []
    /// Adapters we run discovery on, with the filter, to resume after a restart.
    var discovery: [BluetoothAddress: DiscoveryFilter] = [:]

    /// Every characteristic of `device` some session is wished for.
    func wished(_ device: DeviceID) -> Set<String>? {
        guard notifyIntents[device] != nil || captureIntents[device] != nil else { return nil }
        return (notifyIntents[device] ?? []).union(captureIntents[device] ?? [])
    }

    mutating func bluetoothdRestarted() {
        agentRegistered = false
        applicationAdapters = []
        notifyingPaths = []
        startingPaths = []
    }

    /// After a link loss the sessions are normally kept by bluetoothd (docs/reference/BLUEZ-DBUS.md §7); asking again on
    /// the next `ServicesResolved` costs one call that succeeds at once, and covers objects that were
    /// withdrawn with the link.
    mutating func linkDropped(_ device: DeviceID, mirror: ObjectMirror) {
        for characteristic in mirror.characteristics(of: device) { notifyingPaths.remove(characteristic.path) }
    }
}

/// `Adapter1.SetDiscoveryFilter` keys cuffd uses (`doc/adapter-api.txt`, docs/reference/BLUEZ-DBUS.md §2).
public struct DiscoveryFilter: Hashable, Sendable {
    /// Advertised service UUIDs to report; empty for any.
    public var uuids: [String]
    /// Report every advertisement, not only changes. Sent explicitly: 5.66's doc and code disagree on
    /// the default (docs/reference/BLUEZ-DBUS.md §2, pitfall 9).
    public var duplicateData: Bool

    public init(uuids: [String], duplicateData: Bool = false) {
        self.uuids = uuids
        self.duplicateData = duplicateData
    }

    var dictionary: DBusValue {
        let entries: [String: DBusVariant] = [
            "UUIDs": DBusVariant(uuids), "Transport": DBusVariant("le"), "DuplicateData": DBusVariant(duplicateData),
        ]
        return entries.dbusValue
    }
}
