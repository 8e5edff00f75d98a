import BlueZ
import FoundationEssentials

/// What a test makes the devices and bluetoothd do, one step at a time.
extension EmbeddedCentral {
    /// Adds `peripheral`: in the mirror at once when it is bonded (or `exported`), else once discovery finds it.
    public func add(_ peripheral: EmbeddedPeripheral, exported: Bool = false) {
        nodes[peripheral.address] = Node(peripheral)
        if exported { nodes[peripheral.address]!.exported = true }
        if nodes[peripheral.address]!.exported { announce(peripheral.address, ["*"]) }
    }

    /// Changes how the device at `address` behaves from now on (a write handler, what it sends on subscribing).
    public func change(_ address: BluetoothAddress, _ edit: @Sendable (inout EmbeddedPeripheral) -> Void) {
        guard var node = nodes[address] else { return }
        edit(&node.peripheral)
        nodes[address] = node
    }

    /// Sets the value the device at `address` holds for `uuid` (what the next read returns).
    public func set(_ uuid: String, to value: [UInt8], at address: BluetoothAddress) {
        nodes[address]?.values[uuid.lowercased()] = value
    }

    /// The device woke and bluetoothd connected it (GattProfile1 auto-connect, docs/reference/BLUEZ-DBUS.md §4).
    public func linkUp(_ address: BluetoothAddress) {
        guard nodes[address]?.exported == true, nodes[address]?.connected == false else { return }
        bringUp(address)
    }

    /// The device advertises: bluetoothd connects it if it is bonded and trusted (GattProfile1 auto-connect, §4) —
    /// unless it forgot the bond, when the stored key fails and no link comes up — and discovery under way finds it if
    /// bluetoothd does not hold it, or updates the one it holds (its `RSSI`, §2).
    public func advertise(_ address: BluetoothAddress) {
        guard let node = nodes[address] else { return }
        nodes[address]!.silent = false
        if node.paired, node.trusted {
            if !node.bondForgotten { linkUp(address) }
        } else if node.exported, !node.connected, discovering != nil {
            announce(address, ["RSSI"])
        } else {
            discovered(address)
        }
    }

    /// The device dropped the link.
    public func linkDown(_ address: BluetoothAddress) {
        dropLink(address)
    }

    /// The device at `address` answers `count` more reads, then drops the link instead of answering the next.
    public func dropLink(afterReads count: Int, of address: BluetoothAddress) {
        readsBeforeDrop[address] = count
    }

    /// The device at `address` drops the link as a capture's walk asks for its notify sessions, the walk's first step,
    /// and the Gateway has handled the link's end before the walk goes on (a cuff that ends the link as the walk
    /// starts: A&D's after its pairing, docs/capture.md).
    public func dropLinkOnCaptureSessions(of address: BluetoothAddress) {
        dropOnCaptureSessions.insert(address)
    }

    /// The device sends `notification`; nothing arrives without a link and a notify session (§7). Returns whether
    /// it was delivered.
    @discardableResult
    public func send(_ notification: EmbeddedPeripheral.Notification, from address: BluetoothAddress) -> Bool {
        guard available, var node = nodes[address], node.connected, node.notifying.contains(notification.uuid) else { return false }
        node.values[notification.uuid] = notification.bytes
        nodes[address] = node
        let receivedAt = now().addingTimeInterval(Double(valuesSent) / 1000)
        valuesSent += 1
        hub.send(.value(DeviceID(adapter: adapter.address, address: address), uuid: notification.uuid, bytes: notification.bytes, receivedAt: receivedAt))
        return true
    }

    /// Sends each of `notifications` in order; whether all were delivered.
    @discardableResult
    public func send(_ notifications: [EmbeddedPeripheral.Notification], from address: BluetoothAddress) -> Bool {
        notifications.map { send($0, from: address) }.allSatisfy { $0 }
    }

    /// Powers the adapter off or on (rfkill, `bluetoothctl power`).
    public func setPowered(_ powered: Bool) {
        adapter.powered = powered
        if !powered { for address in nodes.keys { dropLink(address) } }
        if available { hub.send(.adapterChanged(adapter)) }
    }

    /// bluetoothd leaves the bus: every link and notify session goes (docs/reference/BLUEZ-DBUS.md §10).
    public func bluetoothdStopped() {
        guard available else { return }
        for address in nodes.keys {
            nodes[address]!.connected = false
            nodes[address]!.servicesResolved = false
            nodes[address]!.notifying = []
            nodes[address]!.peripheral.omron?.linkLost()
            if !nodes[address]!.paired { nodes[address]!.exported = false }
        }
        available = false
        hub.send(.availabilityChanged(false))
    }

    /// bluetoothd is back, with the bonded devices; the client's registrations are redone (§10).
    public func bluetoothdStarted() {
        guard !available else { return }
        available = true
        hub.send(.availabilityChanged(true))
        hub.send(.adapterChanged(adapter))
        for address in nodes.keys.sorted() { announce(address, ["*"]) }
    }

    /// Returns once everyone following the central's events has handled every event sent so far (or the task is
    /// canceled): the Gateway's follow task, and any wait of its.
    public func settled() async {
        await hub.settled()
    }

    /// The writes made to `uuid` (any device), in order.
    public func writes(to uuid: String) -> [[UInt8]] {
        writes.filter { $0.uuid == uuid.lowercased() }.map(\.bytes)
    }

    /// The value the device at `address` holds for `uuid` now.
    public func value(of uuid: String, at address: BluetoothAddress) -> [UInt8]? {
        nodes[address]?.values[uuid.lowercased()]
    }

    /// The Omron cuff at `address`, its memory and protocol.
    public func omron(at address: BluetoothAddress) -> EmbeddedOmronCuff? {
        nodes[address]?.peripheral.omron
    }

    /// Whether bluetoothd holds the device at `address` (in the mirror) and a bond with it.
    public func holds(_ address: BluetoothAddress) -> (exported: Bool, paired: Bool) {
        (nodes[address]?.exported ?? false, nodes[address]?.paired ?? false)
    }

    // MARK: - Links

    /// The link comes up in bluetoothd's order (docs/reference/BLUEZ-DBUS.md §6): `Connected`; the characteristics;
    /// the notify sessions, and what the device sends when they start; `ServicesResolved`.
    func bringUp(_ address: BluetoothAddress) {
        nodes[address]!.connected = true
        if nodes[address]!.peripheral.forgetsBondAfterLink { nodes[address]!.silent = true }
        nodes[address]!.peripheral.recording?.linkUp()
        announce(address, ["Connected"])
        let id = DeviceID(adapter: adapter.address, address: address)
        if !nodes[address]!.servicesExported {
            nodes[address]!.servicesExported = true
            hub.send(.servicesChanged(id))
        }
        nodes[address]!.servicesResolved = true
        startNotifySessions(address)
        announce(address, ["ServicesResolved"])
    }

    /// `ServicesResolved` and `Connected` turn false in one signal; a device without a bond loses its
    /// characteristics with the link.
    func dropLink(_ address: BluetoothAddress) {
        guard nodes[address]?.connected == true else { return }
        nodes[address]!.connected = false
        nodes[address]!.servicesResolved = false
        nodes[address]!.notifying = []
        nodes[address]!.peripheral.omron?.linkLost()
        nodes[address]!.peripheral.recording?.linkDown()
        if nodes[address]!.peripheral.forgetsBondAfterLink, nodes[address]!.paired { nodes[address]!.bondForgotten = true }
        if !nodes[address]!.paired { nodes[address]!.servicesExported = false }
        announce(address, ["ServicesResolved", "Connected"])
    }

    /// Starts a notify session on every wished-for characteristic that has none on this link, each announced;
    /// the device then sends what it sends when its notifications are enabled.
    func startNotifySessions(_ address: BluetoothAddress) {
        let id = DeviceID(adapter: adapter.address, address: address)
        guard let node = nodes[address], node.connected, node.mayNotify, notifyIntents[id] != nil || captureIntents[id] != nil else { return }
        let uuids = (notifyIntents[id] ?? []).union(captureIntents[id] ?? [])
        for characteristic in node.peripheral.characteristics
        where characteristic.canNotify && uuids.contains(characteristic.uuid) && !nodes[address]!.notifying.contains(characteristic.uuid) {
            nodes[address]!.notifying.insert(characteristic.uuid)
            hub.send(.notifying(id, uuid: characteristic.uuid))
            send(node.peripheral.onSubscribe.filter { $0.uuid == characteristic.uuid }, from: address)
            send(node.peripheral.recording?.subscribed(characteristic.uuid) ?? [], from: address)
        }
    }
}
