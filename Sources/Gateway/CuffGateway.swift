import Broadcasting
import BlueZ
import FoundationEssentials
import GATTHealth

/// The Gateway: follows bluetoothd through a ``BluezClient`` and runs one ``CuffSession`` per cuff — from the
/// link coming up, through reading who the cuff is and syncing its clock, to every value it indicates —
/// and serves the control requests (scan, pair, forget, start and stop a measurement).
///
/// Which devices are cuffs: those bluetoothd holds a bond with that offer Blood Pressure 0x1810 or Heart
/// Rate 0x180D, those cuffd pairs, and those the configuration names. For each, notifications are kept
/// enabled (bluetoothd re-enables them on every reconnection, docs/reference/BLUEZ-DBUS.md §7), so a bonded, trusted cuff
/// that wakes is connected by bluetoothd itself (GattProfile1) and its values flow without a request.
public actor CuffGateway {
    let bluez: BluezClient
    let store: any ReadingStore
    let registry: any CuffRegistry
    let configuration: GatewayConfiguration
    let now: @Sendable () -> Date
    var broker: PairingBroker!
    /// The cuffs we collect from, by address.
    var cuffs: [BluetoothAddress: Cuff] = [:]
    var records: [BluetoothAddress: CuffRecord] = [:]
    /// Cuffs being forgotten: events still queued must not adopt them again.
    var forgetting: Set<BluetoothAddress> = []
    /// The adapter in use.
    var adapter: Adapter?
    let subscribers = Broadcaster<GatewayEvent>()
    /// Where sessions keep readings the store refuses (``ReadingSpool``).
    let spool: any ReadingSpool
    var watchers: [Int: MeasurementWatcher] = [:]
    var nextWatcher = 0
    private var followTask: Task<Void, Never>?
    /// Commits what an earlier run left in the spool.
    private var recoveryTask: Task<Void, Never>?

    public init(
        bluez: BluezClient, store: any ReadingStore, registry: any CuffRegistry = InMemoryCuffRegistry(),
        configuration: GatewayConfiguration = GatewayConfiguration(), spool: any ReadingSpool = NoSpool(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.bluez = bluez
        self.store = store
        self.spool = spool
        self.registry = registry
        self.configuration = configuration
        self.now = now
    }

    /// Starts the BlueZ client with the Gateway's agent and follows it. Returns once the initial mirror is
    /// loaded and every registration done (or, without bluetoothd, once the client waits for it).
    public func start() async throws {
        broker = PairingBroker(
            timeout: configuration.passkeyTimeout,
            isKnownCuff: { [weak self] id in await self?.isCollecting(id) ?? false },
            askForPasskey: { [weak self] address in await self?.emit(.passkeyRequested(address)) })
        records = await registry.records()
        let events = await bluez.events()
        try await bluez.start(pairingDelegate: broker)
        followTask = Task { [weak self] in
            for await event in events { await self?.handle(event) }
        }
        await chooseAdapter()
        for device in await bluez.devices { await consider(device) }
        recoveryTask = Task { [weak self] in await self?.recoverSpooledReadings() }
    }

    public func stop() async {
        followTask?.cancel()
        recoveryTask?.cancel()
        await bluez.stop()
        subscribers.finishAll()
    }

    /// Every event from now on; each call returns a stream of its own.
    public func events() -> AsyncStream<GatewayEvent> {
        subscribers.subscribe()
    }

    func emit(_ event: GatewayEvent) {
        subscribers.send(event)
    }

    // MARK: - State

    public var currentAdapter: Adapter? { adapter }

    public var cuffStatuses: [CuffStatus] {
        get async {
            var statuses: [CuffStatus] = []
            for address in cuffs.keys.sorted() { if let status = await status(address) { statuses.append(status) } }
            return statuses
        }
    }

    /// The cuffs cuffd remembers: each identified on a bond and not forgotten since (the registry's records), whether
    /// or not bluetoothd shows it now. Read from the registry, so that it is whole before ``start()`` too.
    public var rememberedCuffs: [BluetoothAddress] {
        get async { await registry.records().keys.sorted() }
    }

    public func status(_ address: BluetoothAddress) async -> CuffStatus? {
        guard let cuff = cuffs[address] else { return nil }
        return CuffStatus(
            address: address, name: cuff.device.name, paired: cuff.device.paired, trusted: cuff.device.trusted,
            connected: cuff.device.connected, state: await cuff.session.state,
            identity: cuff.identified ? await cuff.session.device : nil,
            canStart: cuff.vendorControl != nil, clockOffset: cuff.clockOffset, lastReadingAt: cuff.lastReadingAt)
    }

    func isCollecting(_ id: DeviceID) -> Bool {
        id.adapter == adapter?.address && cuffs[id.address] != nil
    }

    // MARK: - Following bluetoothd

    private func handle(_ event: BluezEvent) async {
        switch event {
        case .availabilityChanged(let available):
            if !available {
                for address in cuffs.keys { await linkLost(address) }
            }
            await chooseAdapter()
        case .adapterChanged, .adapterRemoved:
            await chooseAdapter()
        case let .deviceChanged(device, changed):
            guard device.id.adapter == adapter?.address else { return }
            if cuffs[device.id.address] == nil {
                // Judged by the mirror as it is now: an event queued before a `forget` still shows the bond.
                if let current = await bluez.device(device.id) { await consider(current) }
            } else {
                await deviceChanged(device, changed)
            }
        case .deviceRemoved(let id):
            guard id.adapter == adapter?.address, cuffs[id.address] != nil else { return }
            await linkLost(id.address)
            if !configuration.knownCuffs.contains(id.address) {
                cuffs[id.address] = nil
                emit(.cuffRemoved(id.address))
            }
        case .notifying(let id, _):
            guard id.adapter == adapter?.address, let cuff = cuffs[id.address], await bluez.isNotifying(id) else { return }
            await publish(id.address, await cuff.session.handle(.subscribed))
        case let .value(id, uuid, bytes, receivedAt):
            guard id.adapter == adapter?.address, cuffs[id.address] != nil else { return }
            await value(id.address, uuid, bytes, receivedAt)
        case .servicesChanged:
            break
        }
    }

    /// The configured adapter, else the first powered one (docs/configuration.md `[Bluetooth] Adapter`).
    private func chooseAdapter() async {
        let adapters = await bluez.adapters
        let chosen = configuration.adapter.map { wanted in
            adapters.first { $0.interfaceName == wanted || $0.address.description == wanted.uppercased() }
        } ?? adapters.first { $0.powered } ?? adapters.first
        let changed = chosen?.address != adapter?.address || (chosen?.powered != adapter?.powered)
        adapter = chosen
        if changed { emit(.bluetoothAvailable(chosen?.powered == true)) }
    }
}
