import Broadcasting
import DBus
import GATTHealth
import FoundationEssentials

/// A typed client of bluetoothd (`org.bluez`) for one D-Bus connection: one mirror of its object tree, the
/// registrations a collector needs (pairing agent, GattProfile1 auto-connect application, notify sessions),
/// and the calls on adapters, devices and characteristics, addressed by Bluetooth address and UUID.
///
/// Start-up follows docs/reference/BLUEZ-DBUS.md §1: match rules first, then `GetManagedObjects`, then every
/// `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged` in arrival order, through one stream so
/// the order survives. When bluetoothd's owner changes (a restart), the mirror is rebuilt and every
/// registration redone (§10); neither bluer nor bleak does that.
public actor BluezClient {
    public nonisolated let connection: DBusConnection
    let configuration: BluezClientConfiguration
    var mirror = ObjectMirror()
    /// bluetoothd's unique name while it is on the bus.
    public private(set) var bluetoothdOwner: String?
    private let subscribers = Broadcaster<BluezEvent>()
    private var signalTask: Task<Void, Never>?
    /// The signals handed to the mirror's stream, counted as they arrive, and how many of them the mirror has applied:
    /// the mirror has caught up with a reply once it has applied as many as had arrived when the reply did.
    private let tally = SignalTally()
    private var applied = 0
    private var following = true
    private var catchingUp: [(through: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// What must hold whenever bluetoothd is there; redone after it restarts.
    var registrations = Registrations()
    /// `Connect` calls under way, so a second caller joins the first instead of getting `InProgress`
    /// (docs/reference/BLUEZ-DBUS.md §3: serialize connects per device).
    var connectsInFlight: [DeviceID: Task<Void, Never>] = [:]
    var connectResults: [DeviceID: Result<Void, BluezError>] = [:]

    public init(connection: DBusConnection, configuration: BluezClientConfiguration = BluezClientConfiguration()) {
        self.connection = connection
        self.configuration = configuration
    }

    /// Installs the match rules, exports the agent and the auto-connect application, loads the tree if
    /// bluetoothd is running and starts following it. Without bluetoothd the client waits for it.
    public func start(pairingDelegate: any PairingDelegate) async throws(DBusError) {
        following = true
        let signals = try await connection.signals(matchingAny: [
            MatchRule(sender: BluezName.service, interface: StandardInterface.objectManager, member: "InterfacesAdded"),
            MatchRule(sender: BluezName.service, interface: StandardInterface.objectManager, member: "InterfacesRemoved"),
            MatchRule(sender: BluezName.service, interface: StandardInterface.properties, member: "PropertiesChanged", pathNamespace: "/org/bluez"),
            MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arguments: [0: BluezName.service]),
        ], tally: tally)
        await exportRegistrationObjects(delegate: pairingDelegate)
        if let owner = try? await connection.nameOwner(of: BluezName.service) {
            await bluetoothdAppeared(owner)
        }
        signalTask = Task { [weak self] in
            for await message in signals {
                await self?.applyInOrder(message)
            }
            await self?.stopFollowing()
        }
    }

    /// Stops following bluetoothd; the connection stays open (its owner closes it).
    public func stop() {
        signalTask?.cancel()
        signalTask = nil
        subscribers.finishAll()
        stopFollowing()
    }

    /// Returns once the mirror has applied every signal that had arrived when this was called — so every change
    /// bluetoothd signalled before a reply just received, since it sends them first (docs/reference/BLUEZ-DBUS.md §1).
    /// A condition, not a time: however slowly the mirror's task runs, it returns exactly when the mirror shows the
    /// reply's state. Returns at once when the client no longer follows bluetoothd.
    public func catchUp() async {
        let through = tally.delivered
        guard following, applied < through else { return }
        await withCheckedContinuation { catchingUp.append((through, $0)) }
    }

    private func applyInOrder(_ message: DBusMessage) async {
        await apply(message)
        applied += 1
        let caughtUp = catchingUp.filter { $0.through <= applied }
        catchingUp.removeAll { $0.through <= applied }
        for waiter in caughtUp { waiter.continuation.resume() }
    }

    private func stopFollowing() {
        following = false
        let waiting = catchingUp
        catchingUp = []
        for waiter in waiting { waiter.continuation.resume() }
    }

    /// Every event from now on; each call returns a stream of its own.
    public func events() -> AsyncStream<BluezEvent> {
        subscribers.subscribe()
    }

    func emit(_ event: BluezEvent) {
        subscribers.send(event)
    }

    // MARK: - What the mirror knows

    public var isAvailable: Bool { bluetoothdOwner != nil }
    public var adapters: [Adapter] { mirror.adapters }
    public var devices: [Device] { mirror.devices }
    public func device(_ id: DeviceID) -> Device? { mirror.device(id) }
    public func device(at path: DBusObjectPath) -> Device? { mirror.device(at: path) }
    public func characteristics(of device: DeviceID) -> [GattCharacteristic] { mirror.characteristics(of: device) }
    public func characteristic(_ uuid: String, of device: DeviceID) -> GattCharacteristic? { mirror.characteristic(uuid, of: device) }
    public func descriptors(of device: DeviceID) -> [GattDescriptor] { mirror.descriptors(of: device) }

    /// The paths of the characteristics bluetoothd holds beneath `device` now, from a `GetManagedObjects` of its own:
    /// bluetoothd exports a database at once, but the mirror takes its `InterfacesAdded` one signal at a time
    /// (docs/reference/BLUEZ-DBUS.md §6). Nil when bluetoothd does not answer.
    public func characteristicsOnBus(of device: DeviceID) async -> Set<DBusObjectPath>? {
        guard let reply = try? await connection.call(BluezName.service, .root, StandardInterface.objectManager, "GetManagedObjects"),
              let managed = try? reply.first?.decode([DBusObjectPath: [String: DBusProperties]].self) else { return nil }
        var snapshot = ObjectMirror()
        snapshot.reset(managed)
        return Set(snapshot.characteristics(of: device).map(\.path))
    }

    // MARK: - Following bluetoothd

    private func apply(_ message: DBusMessage) async {
        switch (message.interface, message.member) {
        case ("org.freedesktop.DBus", "NameOwnerChanged"):
            guard message.arguments.count == 3, case .string(let newOwner) = message.arguments[2],
                  newOwner != bluetoothdOwner  // already followed since start-up
            else { return }
            if bluetoothdOwner != nil { bluetoothdVanished() }
            if !newOwner.isEmpty { await bluetoothdAppeared(newOwner) }
        case (StandardInterface.objectManager, "InterfacesAdded"):
            guard let path = try? message.argument(0, as: DBusObjectPath.self),
                  let interfaces = try? message.argument(1, as: [String: DBusProperties].self) else { return }
            mirror.add(interfaces, at: path)
            announceAdded(interfaces.keys, at: path)
        case (StandardInterface.objectManager, "InterfacesRemoved"):
            guard let path = try? message.argument(0, as: DBusObjectPath.self),
                  let names = try? message.argument(1, as: [String].self) else { return }
            announceRemoval(names, at: path)
        case (StandardInterface.properties, "PropertiesChanged"):
            guard let path = message.path, let interface = try? message.argument(0, as: String.self),
                  let changed = try? message.argument(1, as: DBusProperties.self) else { return }
            let invalidated = (try? message.argument(2, as: [String].self)) ?? []
            guard mirror.change(changed, invalidated: invalidated, interface: interface, at: path) else { return }
            announceChange(Set(changed.keys).union(invalidated), of: interface, at: path, changed)
        default:
            break
        }
    }

    /// bluetoothd is on the bus: load its tree, then redo every registration (docs/reference/BLUEZ-DBUS.md §10).
    private func bluetoothdAppeared(_ owner: String) async {
        bluetoothdOwner = owner
        do {
            let reply = try await connection.call(BluezName.service, .root, StandardInterface.objectManager, "GetManagedObjects")
            mirror.reset(try reply.first?.decode([DBusObjectPath: [String: DBusProperties]].self) ?? [:])
        } catch {
            // bluetoothd left again before it answered; its NameOwnerChanged follows.
            mirror.removeAll()
        }
        await registerEverything()
        emit(.availabilityChanged(true))
        for adapter in mirror.adapters { emit(.adapterChanged(adapter)) }
        for device in mirror.devices { emit(.deviceChanged(device, changed: Self.everyProperty)) }
    }

    /// bluetoothd left: every object, link, registration and notify session went with it.
    private func bluetoothdVanished() {
        bluetoothdOwner = nil
        mirror.removeAll()
        registrations.bluetoothdRestarted()
        emit(.availabilityChanged(false))
    }

    private func announceAdded(_ interfaces: Dictionary<String, DBusProperties>.Keys, at path: DBusObjectPath) {
        if interfaces.contains(BluezName.adapter), let adapter = mirror.adapter(at: path) {
            emit(.adapterChanged(adapter))
            Task { await registerApplication(on: adapter) }
        }
        if interfaces.contains(BluezName.device), let device = mirror.device(at: path) {
            emit(.deviceChanged(device, changed: Self.everyProperty))
        }
        if interfaces.contains(BluezName.gattCharacteristic), let characteristic = mirror.characteristic(at: path) {
            emit(.servicesChanged(characteristic.device))
            enableNotifications(characteristic.device)
        }
    }

    private func announceRemoval(_ names: [String], at path: DBusObjectPath) {
        let adapter = names.contains(BluezName.adapter) ? mirror.adapter(at: path) : nil
        let device = names.contains(BluezName.device) ? mirror.device(at: path) : nil
        let characteristic = names.contains(BluezName.gattCharacteristic) ? mirror.characteristic(at: path) : nil
        mirror.remove(names, at: path)
        if let characteristic {
            registrations.notifyingPaths.remove(path)
            registrations.startingPaths.remove(path)
            emit(.servicesChanged(characteristic.device))
        }
        if let device { emit(.deviceRemoved(device.id)) }
        if let adapter {
            registrations.applicationAdapters.remove(adapter.address)
            emit(.adapterRemoved(adapter.address))
        }
    }

    private func announceChange(_ names: Set<String>, of interface: String, at path: DBusObjectPath, _ changed: DBusProperties) {
        switch interface {
        case BluezName.gattCharacteristic:
            guard let characteristic = mirror.characteristic(at: path) else { return }
            if case .bytes(let value)? = changed["Value"]?.value {
                emit(.value(characteristic.device, uuid: characteristic.uuid, bytes: value, receivedAt: Date()))
            }
        case BluezName.device:
            guard let device = mirror.device(at: path) else { return }
            if names.contains("Connected"), !device.connected { registrations.linkDropped(device.id, mirror: mirror) }
            emit(.deviceChanged(device, changed: names))
            if names.contains("ServicesResolved"), device.servicesResolved { enableNotifications(device.id) }
        case BluezName.adapter:
            guard let adapter = mirror.adapter(at: path) else { return }
            emit(.adapterChanged(adapter))
        default:
            break
        }
    }

    static let everyProperty: Set<String> = ["*"]
}

/// How the client presents itself to bluetoothd.
public struct BluezClientConfiguration: Sendable {
    /// The capability of the standing agent: `NoInputNoOutput` (a headless gateway; Just Works), raised to
    /// `KeyboardDisplay` only while cuffd itself pairs, so passkey cuffs can be typed in.
    public var agentCapability: AgentCapability = .noInputNoOutput
    /// Whether the agent asks to be the default agent. Peer-initiated security requests and BlueZ's own
    /// security elevation go to the default agent (docs/reference/BLUEZ-DBUS.md §5); it is system-wide, so a desktop may
    /// want it off.
    public var requestsDefaultAgent = true
    /// The services whose devices bluetoothd should connect to on its own when they advertise
    /// (GattProfile1, docs/reference/BLUEZ-DBUS.md §4): Blood Pressure 0x1810, Heart Rate 0x180D and Omron's two services
    /// (docs/omron.md §1).
    public var autoConnectUUIDs = ["00001810-0000-1000-8000-00805f9b34fb", "0000180d-0000-1000-8000-00805f9b34fb"] + OmronStack.serviceUUIDs
    /// Where the agent and the application are exported on cuffd's connection.
    public var objectRoot: DBusObjectPath = "/org/cuffd/bluez"

    public init() {}
}
