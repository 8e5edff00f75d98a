import BlueZ
import DBus
import FoundationEssentials
import Gateway

/// An in-memory bluetoothd for the Gateway: a ``BluetoothCentral`` whose adapter, devices and links change only
/// when the test says so, one step at a time (docs/gateway.md, "Seams"; swift-nio's `EmbeddedChannel` is the
/// model). What the Gateway asks of it — pair, connect, read, write, notify — it answers at once from the
/// ``EmbeddedPeripheral``s it was given; what a cuff does by itself — wake, drop the link, send a value — the test
/// makes it do (``linkUp(_:)``, ``linkDown(_:)``, ``send(_:from:)``), and ``settled()`` says when the Gateway has
/// handled all of it.
///
/// It keeps bluetoothd's order where the Gateway relies on it (docs/reference/BLUEZ-DBUS.md §6–§7): `Connected`,
/// then the characteristics, then the notify sessions and the values they bring, then `ServicesResolved`; notify
/// sessions on a device that pairs start only once it is paired (the security elevation waits for the pairing);
/// every event is applied to the mirror before it is sent.
public actor EmbeddedCentral: BluetoothCentral {
    struct Node {
        var peripheral: EmbeddedPeripheral
        /// In the mirror (bonded, discovered, or named by a test).
        var exported: Bool
        var paired: Bool
        var trusted: Bool
        /// The device forgot its side of the bond bluetoothd holds (``EmbeddedPeripheral/forgetsBondAfterLink``).
        var bondForgotten = false
        /// Such a device is silent from its first link until it advertises again (``advertise(_:)``), as cuff-sim's cuffs
        /// are after a link: discovery does not find it meanwhile.
        var silent = false
        var connected = false
        var servicesResolved = false
        /// bluetoothd knows its GATT database: its characteristics are in the mirror (a bond keeps them across links).
        var servicesExported = false
        var values: [String: [UInt8]]
        /// Characteristics with a notify session on this link.
        var notifying: Set<String> = []

        init(_ peripheral: EmbeddedPeripheral) {
            self.peripheral = peripheral
            exported = peripheral.bonded
            paired = peripheral.bonded
            trusted = peripheral.bonded
            servicesExported = peripheral.bonded
            values = Dictionary(peripheral.characteristics.map { ($0.uuid, $0.value) }, uniquingKeysWith: { first, _ in first })
        }

        var mayNotify: Bool {
            if case .none = peripheral.pairing { return true }
            return paired
        }
    }

    /// A write the Gateway made.
    public struct Write: Sendable, Equatable {
        public var address: BluetoothAddress
        public var uuid: String
        public var bytes: [UInt8]
        public var type: BluezClient.WriteType
    }

    let hub = EventHub<BluezEvent>()
    public internal(set) var adapter: Adapter
    var nodes: [BluetoothAddress: Node] = [:]
    var available = true
    var notifyIntents: [DeviceID: Set<String>] = [:]
    /// The services the Gateway's discovery session looks for (empty: all), while one runs.
    var discovering: Set<String>?
    /// A capture's wishes beside the Gateway's (docs/capture.md), never counted by ``isNotifying(_:)``.
    var captureIntents: [DeviceID: Set<String>] = [:]
    /// Reads each device still answers before it drops the link (``dropLink(afterReads:of:)``).
    var readsBeforeDrop: [BluetoothAddress: Int] = [:]
    /// Devices that drop the link when a capture asks for its notify sessions (``dropLinkOnCaptureSessions(of:)``).
    var dropOnCaptureSessions: Set<BluetoothAddress> = []
    var delegate: (any PairingDelegate)?
    /// What the Gateway's agent is registered with, each change in order.
    public private(set) var agentCapabilities: [AgentCapability] = [.noInputNoOutput]
    /// Every write, in order.
    public private(set) var writes: [Write] = []
    /// Every characteristic read answered, in order, each with how many of ``writes`` came before it.
    public private(set) var reads: [(uuid: String, writesBefore: Int)] = []
    /// The calls that change bluetoothd's state, in order, as `Member address` (`Pair`, `Connect`, `Disconnect`,
    /// `RemoveDevice`, `StartDiscovery`, `StopDiscovery`, `StopNotify`).
    public private(set) var calls: [String] = []
    /// The time the first value is received at; the Gateway stamps readings with it.
    let now: @Sendable () -> Date
    /// Values sent so far: each is received a millisecond after the one before, as no two notifications arrive at
    /// the same instant (a heart-rate sample is named by its time of receipt).
    var valuesSent = 0

    public init(adapter: BluetoothAddress = BluetoothAddress("00:1A:7D:DA:71:13")!, now: @escaping @Sendable () -> Date = { Date() }) {
        self.adapter = Adapter(path: "/org/bluez/hci0", address: adapter)
        self.now = now
    }

    // MARK: - BluetoothCentral

    public func start(pairingDelegate: any PairingDelegate) async throws {
        delegate = pairingDelegate
    }

    public func stop() async {
        hub.finishAll()
    }

    public func events() -> AsyncStream<BluezEvent> {
        hub.subscribe()
    }

    public var adapters: [Adapter] { available ? [adapter] : [] }

    public var devices: [Device] {
        guard available else { return [] }
        return nodes.values.filter(\.exported).map(device).sorted { $0.id < $1.id }
    }

    public func device(_ id: DeviceID) -> Device? {
        guard available, id.adapter == adapter.address, let node = nodes[id.address], node.exported else { return nil }
        return device(node)
    }

    public func characteristics(of device: DeviceID) -> [GattCharacteristic] {
        guard available, device.adapter == adapter.address, let node = nodes[device.address], node.exported, node.servicesExported else { return [] }
        return node.peripheral.characteristics.enumerated().map { index, characteristic in
            GattCharacteristic(
                path: try! path(of: node).appending("char\(String(index, radix: 16))"), device: device, uuid: characteristic.uuid,
                serviceUUID: characteristic.serviceUUID, flags: characteristic.flags, notifying: node.notifying.contains(characteristic.uuid))
        }
    }

    public func characteristic(_ uuid: String, of device: DeviceID) -> GattCharacteristic? {
        characteristics(of: device).first { $0.uuid == uuid.lowercased() }
    }

    /// In process the mirror is the bus: what it holds.
    public func characteristicsOnBus(of device: DeviceID) -> Set<DBusObjectPath>? {
        Set(characteristics(of: device).map(\.path))
    }

    public func descriptors(of device: DeviceID) -> [GattDescriptor] {
        let characteristics = characteristics(of: device)
        guard let node = nodes[device.address] else { return [] }
        return node.peripheral.descriptors.enumerated().compactMap { index, descriptor in
            guard let characteristic = characteristics.first(where: { $0.uuid == descriptor.characteristic }) else { return nil }
            return GattDescriptor(
                path: try! characteristic.path.appending("desc\(String(index, radix: 16))"), device: device, uuid: descriptor.uuid,
                characteristic: characteristic.path, flags: descriptor.flags)
        }
    }

    public func startDiscovery(on adapter: BluetoothAddress, filter: DiscoveryFilter) async throws(BluezError) {
        guard available, adapter == self.adapter.address else { throw Self.error("NoSuchAdapter", "no adapter \(adapter)") }
        calls.append("StartDiscovery \(adapter)")
        discovering = Set(filter.uuids.map { $0.lowercased() })
        for address in nodes.keys.sorted() where nodes[address]!.peripheral.reachable { discovered(address) }
    }

    public func stopDiscovery(on adapter: BluetoothAddress) async {
        calls.append("StopDiscovery \(adapter)")
        discovering = nil
    }

    /// Discovery under way finds the device at `address` if it passes the filter and is not in the mirror yet.
    func discovered(_ address: BluetoothAddress) {
        guard let wanted = discovering, let node = nodes[address], !node.exported, !node.silent,
              wanted.isEmpty || !wanted.isDisjoint(with: node.peripheral.services) else { return }
        nodes[address]!.exported = true
        announce(address, ["*"])
    }

    public func connect(_ id: DeviceID) async throws(BluezError) {
        let address = try exported(id)
        calls.append("Connect \(address)")
        guard !nodes[address]!.connected else { return }
        guard nodes[address]!.peripheral.reachable else { throw Self.error("Failed", "le-connection-abort-by-local") }
        bringUp(address)
    }

    public func disconnect(_ id: DeviceID) async throws(BluezError) {
        let address = try exported(id)
        calls.append("Disconnect \(address)")
        dropLink(address)
    }

    public func pair(_ id: DeviceID, timeout: Duration) async throws(BluezError) {
        let address = try exported(id)
        calls.append("Pair \(address)")
        guard !nodes[address]!.paired else { return }
        if !nodes[address]!.connected {
            guard nodes[address]!.peripheral.reachable else { throw Self.error("Failed", "le-connection-abort-by-local") }
            bringUp(address)
        }
        if case .passkey(let key) = nodes[address]!.peripheral.pairing {
            try await askForPasskey(id, expecting: key)
        }
        // The link may have gone, or the device been removed, while the agent was asked.
        guard nodes[address]?.exported == true else { throw Self.unknown(id) }
        nodes[address]!.paired = true
        announce(address, ["Paired", "Bonded"])
        startNotifySessions(address)
    }

    /// The agent's part of a passkey pairing, mapped to the errors `Pair` replies with (docs/reference/BLUEZ-DBUS.md §5).
    private func askForPasskey(_ id: DeviceID, expecting key: UInt32) async throws(BluezError) {
        guard let delegate, [.keyboardDisplay, .keyboardOnly].contains(agentCapabilities.last) else {
            throw Self.error("AuthenticationFailed", "Authentication Failed")
        }
        let typed: UInt32
        do {
            typed = try await delegate.passkey(for: id)
        } catch AgentRefusal.rejected {
            throw Self.error("AuthenticationRejected", "Authentication Rejected")
        } catch {
            throw Self.error("AuthenticationCanceled", "Authentication Canceled")
        }
        guard typed == key else { throw Self.error("AuthenticationFailed", "Authentication Failed") }
    }

    public func setTrusted(_ id: DeviceID, _ trusted: Bool) async throws(BluezError) {
        let address = try exported(id)
        nodes[address]!.trusted = trusted
        announce(address, ["Trusted"])
    }

    public func remove(_ id: DeviceID) async throws(BluezError) {
        let address = try exported(id)
        calls.append("RemoveDevice \(address)")
        notifyIntents[id] = nil
        dropLink(address)
        let silent = nodes[address]!.silent
        nodes[address] = Node(nodes[address]!.peripheral.unbonded)
        nodes[address]!.silent = silent
        hub.send(.deviceRemoved(id))
    }

    public func setAgentCapability(_ capability: AgentCapability) async {
        guard capability != agentCapabilities.last else { return }
        agentCapabilities.append(capability)
    }

    public func keepNotifying(_ device: DeviceID, uuids: Set<String>) async {
        notifyIntents[device, default: []].formUnion(uuids.map { $0.lowercased() })
        if device.adapter == adapter.address, nodes[device.address]?.servicesResolved == true { startNotifySessions(device.address) }
    }

    public func stopNotifying(_ device: DeviceID) async {
        guard notifyIntents.removeValue(forKey: device) != nil else { return }
        calls.append("StopNotify \(device.address)")
        nodes[device.address]?.notifying = []
    }

    public func keepCaptureNotifying(_ device: DeviceID, uuids: Set<String>) async {
        if dropOnCaptureSessions.remove(device.address) != nil {
            dropLink(device.address)
            // The capture hears of the link's end before this call returns to its walk.
            await settled()
        }
        captureIntents[device, default: []].formUnion(uuids.map { $0.lowercased() })
        if device.adapter == adapter.address, nodes[device.address]?.servicesResolved == true { startNotifySessions(device.address) }
    }

    public func stopCaptureNotifying(_ device: DeviceID) async {
        guard let uuids = captureIntents.removeValue(forKey: device) else { return }
        nodes[device.address]?.notifying.subtract(uuids.subtracting(notifyIntents[device] ?? []))
    }

    public func isNotifying(_ device: DeviceID) -> Bool {
        guard let uuids = notifyIntents[device], let node = nodes[device.address] else { return false }
        let wanted = characteristics(of: device).filter { uuids.contains($0.uuid) && ($0.flags.contains("notify") || $0.flags.contains("indicate")) }
        return !wanted.isEmpty && wanted.allSatisfy { node.notifying.contains($0.uuid) }
    }

    public func readValue(_ uuid: String, of device: DeviceID) async throws(BluezError) -> [UInt8] {
        let characteristic = try linked(uuid, of: device)
        guard characteristic.flags.contains("read") else { throw Self.attError(0x02, "Read not permitted") }
        try answerRead(device.address)
        reads.append((characteristic.uuid, writes.count))
        if let recording = nodes[device.address]!.peripheral.recording { return try recording.read(characteristic.uuid) }
        return nodes[device.address]!.values[characteristic.uuid] ?? []
    }

    public func readDescriptor(_ descriptor: GattDescriptor) async throws(BluezError) -> [UInt8] {
        guard let found = descriptors(of: descriptor.device).firstIndex(where: { $0.path == descriptor.path }) else {
            throw Self.error("DoesNotExist", "no descriptor \(descriptor.path)")
        }
        guard nodes[descriptor.device.address]?.connected == true else { throw Self.error("NotConnected", "Not Connected") }
        try answerRead(descriptor.device.address)
        let recorded = nodes[descriptor.device.address]!.peripheral.descriptors[found]
        if let error = recorded.readError { throw Self.refusal(error) }
        return recorded.value
    }

    /// One read answered; the link drops instead once the device's reads before a drop are used up.
    private func answerRead(_ address: BluetoothAddress) throws(BluezError) {
        guard let left = readsBeforeDrop[address] else { return }
        guard left == 0 else {
            readsBeforeDrop[address] = left - 1
            return
        }
        readsBeforeDrop[address] = nil
        dropLink(address)
        throw Self.error("Failed", "Not connected")
    }

    /// Each write is announced as it goes out, and again when it is refused (``BluezEvent/write(_:_:)``).
    public func writeValue(_ bytes: [UInt8], to uuid: String, of device: DeviceID, type: BluezClient.WriteType) async throws(BluezError) {
        var write = GattWrite(uuid: uuid, bytes: bytes, type: type)
        hub.send(.write(device, write))
        do {
            try carryOut(bytes, to: uuid, of: device, type: type)
        } catch {
            write.refusal = error.description
            hub.send(.write(device, write))
            throw error
        }
    }

    private func carryOut(_ bytes: [UInt8], to uuid: String, of device: DeviceID, type: BluezClient.WriteType) throws(BluezError) {
        let characteristic = try linked(uuid, of: device)
        guard characteristic.flags.contains(type == .request ? "write" : "write-without-response") else {
            throw Self.attError(0x03, "Write not permitted")
        }
        writes.append(Write(address: device.address, uuid: characteristic.uuid, bytes: bytes, type: type))
        defer { if nodes[device.address]?.peripheral.linkEndingWrites[characteristic.uuid] == bytes { dropLink(device.address) } }
        guard let handler = nodes[device.address]!.peripheral.writeHandlers[characteristic.uuid] else {
            nodes[device.address]!.values[characteristic.uuid] = bytes
            return
        }
        for notification in try handler(bytes, type, nodes[device.address]!.notifying) { send(notification, from: device.address) }
    }

    // MARK: - The mirror

    func device(_ node: Node) -> Device {
        Device(
            path: path(of: node), id: DeviceID(adapter: adapter.address, address: node.peripheral.address), name: node.peripheral.name,
            uuids: node.peripheral.services, paired: node.paired, trusted: node.trusted, connected: node.connected,
            servicesResolved: node.servicesResolved)
    }

    func path(of node: Node) -> DBusObjectPath {
        try! adapter.path.appending(node.peripheral.address.objectPathElement)
    }

    /// Sends `changed` properties of the device at `address` as they are now.
    func announce(_ address: BluetoothAddress, _ changed: Set<String>) {
        guard available, let node = nodes[address], node.exported else { return }
        hub.send(.deviceChanged(device(node), changed: changed))
    }

    /// The address of the exported device `id`; bluetoothd's `DoesNotExist` for any other.
    func exported(_ id: DeviceID) throws(BluezError) -> BluetoothAddress {
        guard device(id) != nil else { throw Self.unknown(id) }
        return id.address
    }

    /// The characteristic `uuid` of `device` on a link that is up.
    func linked(_ uuid: String, of device: DeviceID) throws(BluezError) -> GattCharacteristic {
        guard let characteristic = characteristic(uuid, of: device) else {
            throw Self.error("DoesNotExist", "\(device.address) has no characteristic \(uuid)")
        }
        guard nodes[device.address]?.connected == true else { throw Self.error("NotConnected", "Not Connected") }
        return characteristic
    }

    static func unknown(_ id: DeviceID) -> BluezError {
        error("DoesNotExist", "no device \(id.address) on adapter \(id.adapter)")
    }

    static func error(_ name: String, _ message: String) -> BluezError {
        BluezError(DBusError(DBusError.Name(rawValue: "org.bluez.Error.\(name)"), message))
    }

    /// A recorded refusal (`org.bluez.Error.Failed: …`) as a call's error.
    static func refusal(_ text: String) -> BluezError {
        let parts = text.split(separator: ": ", maxSplits: 1).map(String.init)
        return BluezError(DBusError(DBusError.Name(rawValue: parts[0]), parts.count > 1 ? parts[1] : ""))
    }

    /// An ATT error as bluetoothd passes it on (`org.bluez.Error.Failed`, docs/reference/BLUEZ-DBUS.md §8).
    static func attError(_ code: UInt8, _ text: String) -> BluezError {
        error("Failed", "\(text) (0x\(String(code, radix: 16, uppercase: true)))")
    }
}

extension EmbeddedPeripheral {
    /// As bluetoothd has it after `RemoveDevice`: no bond.
    var unbonded: EmbeddedPeripheral {
        var peripheral = self
        peripheral.bonded = false
        return peripheral
    }
}
