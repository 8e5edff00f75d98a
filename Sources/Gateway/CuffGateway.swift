import Broadcasting
import BlueZ
import FoundationEssentials
import GATTHealth

/// The Gateway: follows bluetoothd through a ``BluetoothCentral`` and runs one ``CuffSession`` per cuff — from the
/// link coming up, through reading who the cuff is and syncing its clock, to every value it indicates —
/// and serves the control requests (scan, pair, forget, start and stop a measurement).
///
/// Which devices are cuffs: those bluetoothd holds a bond with that offer Blood Pressure 0x1810 or Heart
/// Rate 0x180D, those cuffd pairs, and those the configuration names. For each, notifications are kept
/// enabled (bluetoothd re-enables them on every reconnection, docs/reference/BLUEZ-DBUS.md §7), so a bonded, trusted cuff
/// that wakes is connected by bluetoothd itself (GattProfile1) and its values flow without a request.
///
/// ## Reentrancy
///
/// Everything that changes is in ``state`` (``State`` says, field by field, what may change it). The actor
/// is reentrant: at every `await` another of its jobs may run. Three kinds of caller interleave:
///
/// - the follow task, handling bluetoothd's events one at a time, in order (`handle`, asserted);
/// - control requests from the D-Bus API, any number at once: `pair`, `forget`, `scan`,
///   `startMeasurement`, `stopMeasurement`, `resetEnergyExpended`, `status`;
/// - tasks the Gateway starts: one provisioning task per link, the spool recovery, each armed
///   measurement's timeout, and sessions' later events (a store retry's commits, through `publish`).
///
/// Methods that never suspend run as one step: `consider`'s check and `adopt`'s ``State/collect(_:)``,
/// `startProvisioning`'s check and set, `linkLost`'s clearing of provisioning and download, every removal of
/// a watcher. Methods that suspend follow three rules, and re-check after an await:
///
/// 1. A cuff is looked up again after every await and written through `state.cuffs[address]?`, never
///    through a copy stored back: `forget` or bluetoothd may have removed it meanwhile (`publish`,
///    `measureClock`, `recordSegment`, the Omron clock and key). What a copy is used for across an await
///    is its constant parts: session, Omron inbox, device ID.
/// 2. Work that belongs to one link stops when the link does: `linkLost` cancels the provisioning task, and
///    each of its steps checks `Task.isCancelled` (or a sleep that throws) before changing anything
///    (`provision`, `identify`, the download requests). `identify` also checks that the cuff is still
///    collected and connected before remembering what it read, and reads its record afresh then.
/// 3. A request re-asks what it waited for: `pair` waits for the follow task to have handled the bond (once
///    adopted, a cuff's device changes only as the follow task handles events: a newer snapshot applied out of
///    turn would be undone by an older event still queued) and looks the cuff up again after its provisioning
///    ended (the refusal is read then); `forget` marks the address before its
///    first await (``State/beginForgetting(_:)``) so that `consider` cannot adopt it again meanwhile;
///    `startMeasurement` reads the vendor control point after yielding the states.
public actor CuffGateway {
    /// bluetoothd: a ``BluezClient`` in the daemon, an in-memory central in tests (docs/gateway.md, "Seams").
    let bluetooth: any BluetoothCentral
    let store: any ReadingStore
    let registry: any CuffRegistry
    let configuration: GatewayConfiguration
    let now: @Sendable () -> Date
    /// What every wait, timeout and retry delay of the Gateway and its sessions is measured on; tests advance
    /// one of their own (docs/gateway.md, "Seams"). Dates of readings come from ``now``.
    let clock: any Clock<Duration>
    /// Set once, by ``start()``, before any event is followed. Which pairings are under way changes across
    /// suspensions (`pair` ends one in a `defer`), so `isPairing` is asked each time, never kept.
    var broker: PairingBroker!
    let subscribers = Broadcaster<GatewayEvent>()
    /// Where sessions keep readings the store refuses (``ReadingSpool``).
    let spool: any ReadingSpool
    /// What changes after `init`; see ``State`` for who changes each field across a suspension.
    var state = State()

    public init(
        bluetooth: any BluetoothCentral, store: any ReadingStore, registry: any CuffRegistry = InMemoryCuffRegistry(),
        configuration: GatewayConfiguration = GatewayConfiguration(), spool: any ReadingSpool = NoSpool(),
        now: @escaping @Sendable () -> Date = { Date() }, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.bluetooth = bluetooth
        self.clock = clock
        self.store = store
        self.spool = spool
        self.registry = registry
        self.configuration = configuration
        self.now = now
    }

    /// Starts the central with the Gateway's agent and follows it. Returns once the initial mirror is
    /// loaded and every registration done (or, without bluetoothd, once the client waits for it).
    public func start() async throws {
        broker = PairingBroker(
            timeout: configuration.passkeyTimeout, clock: clock,
            isKnownCuff: { [weak self] id in await self?.isCollecting(id) ?? false },
            askForPasskey: { [weak self] address in await self?.emit(.passkeyRequested(address)) })
        state.records = await registry.records()
        let events = await bluetooth.events()
        try await bluetooth.start(pairingDelegate: broker)
        state.followTask = Task { [weak self] in
            for await event in events { await self?.handle(event) }
        }
        await chooseAdapter()
        for device in await bluetooth.devices { await consider(device) }
        state.recoveryTask = Task { [weak self] in await self?.recoverSpooledReadings() }
    }

    /// Stops following bluetoothd; the heart-rate values each session still holds are committed first (SIGTERM
    /// loses none, docs/gateway.md "Heart rate").
    public func stop() async {
        state.followTask?.cancel()
        state.recoveryTask?.cancel()
        for (address, cuff) in state.cuffs { await publish(address, await cuff.session.flushHeartRates()) }
        await bluetooth.stop()
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

    public var currentAdapter: Adapter? { state.adapter }

    public var cuffStatuses: [CuffStatus] {
        get async {
            var statuses: [CuffStatus] = []
            for address in state.cuffs.keys.sorted() { if let status = await status(address) { statuses.append(status) } }
            return statuses
        }
    }

    /// The cuffs cuffd remembers: each identified on a bond and not forgotten since (the registry's records), whether
    /// or not bluetoothd shows it now. Read from the registry, so that it is whole before ``start()`` too.
    public var rememberedCuffs: [BluetoothAddress] {
        get async { await registry.records().keys.sorted() }
    }

    public func status(_ address: BluetoothAddress) async -> CuffStatus? {
        guard let cuff = state.cuffs[address] else { return nil }
        return CuffStatus(
            address: address, name: cuff.device.name, paired: cuff.device.paired, trusted: cuff.device.trusted,
            connected: cuff.device.connected, state: await cuff.session.state,
            identity: cuff.identified ? await cuff.session.device : nil,
            canStart: cuff.vendorControl != nil, clockOffset: cuff.clockOffset, lastReadingAt: cuff.lastReadingAt,
            batteryLevel: cuff.batteryLevel, batteryLow: cuff.omronBatteryLow)
    }

    func isCollecting(_ id: DeviceID) -> Bool {
        id.adapter == state.adapter?.address && state.cuffs[id.address] != nil
    }

    // MARK: - Following bluetoothd

    private func handle(_ event: BluezEvent) async {
        assert(!state.handlingEvent, "BlueZ events must be handled one at a time, in order")
        state.handlingEvent = true
        defer { state.handlingEvent = false }
        for capture in state.captures.values { await capture.handle(event) }
        await follow(event)
        await letCapturesWalk()
    }

    private func follow(_ event: BluezEvent) async {
        switch event {
        case .availabilityChanged(let available):
            if !available {
                for address in state.cuffs.keys { await linkLost(address) }
            }
            await chooseAdapter()
        case .adapterChanged, .adapterRemoved:
            await chooseAdapter()
        case let .deviceChanged(device, changed):
            guard device.id.adapter == state.adapter?.address else { return }
            if state.cuffs[device.id.address] == nil {
                // Judged by the mirror as it is now: an event queued before a `forget` still shows the bond.
                if let current = await bluetooth.device(device.id) { await consider(current) }
            } else {
                await deviceChanged(device, changed)
            }
        case .deviceRemoved(let id):
            guard id.adapter == state.adapter?.address, state.cuffs[id.address] != nil else { return }
            await deviceRemoved(id)
        case .notifying(let id, _):
            guard id.adapter == state.adapter?.address, let cuff = state.cuffs[id.address], await bluetooth.isNotifying(id) else { return }
            await publish(id.address, await cuff.session.handle(.subscribed))
        case let .value(id, uuid, bytes, receivedAt):
            guard id.adapter == state.adapter?.address, state.cuffs[id.address] != nil else { return }
            await value(id.address, uuid, bytes, receivedAt)
        case .servicesChanged, .write:
            break
        }
    }

    /// The configured adapter, else the first powered one (docs/configuration.md `[Bluetooth] Adapter`).
    private func chooseAdapter() async {
        let adapters = await bluetooth.adapters
        let chosen = configuration.adapter.map { wanted in
            adapters.first { $0.interfaceName == wanted || $0.address.description == wanted.uppercased() }
        } ?? adapters.first { $0.powered } ?? adapters.first
        let changed = chosen?.address != state.adapter?.address || (chosen?.powered != state.adapter?.powered)
        state.adapter = chosen
        if changed {
            emit(.bluetoothAvailable(chosen?.powered == true))
            // Discovery ends with the adapter's power; the watch starts (at start-up too) on the adapter now in use.
            state.rebondWatch = nil
            await watchForRebonding()
        }
    }
}
