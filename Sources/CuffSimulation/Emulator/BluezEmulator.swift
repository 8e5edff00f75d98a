import BlueZ
import DBus
import Foundation
import GATTHealth

/// An emulated bluetoothd: owns `org.bluez` on a bus and exports the object model of BlueZ 5.66
/// (docs/reference/BLUEZ-DBUS.md §1–§10) with the cuffs of a scenario, which advertise, connect, pair and send
/// their scripted values the way real ones do through the real daemon.
///
/// Where bluetoothd is awkward, this is too: `ServicesResolved` follows `Connected`; temporary
/// devices vanish when discovery stops; `Pair` calls the agent before it replies;
/// `RegisterApplication` reads the application's objects before it replies; notifications and
/// indications are `PropertiesChanged` on `Value`; a restart drops every registration.
public actor BluezEmulator {
    let scenario: Scenario
    let bus: DBusConnection.Bus
    let log: @Sendable (String) -> Void
    /// A timeline's `pressStart` step waits for a driver (``pressStart(cuffAt:)``); else it passes at its time.
    let manualStart: Bool

    var connection: DBusConnection?
    /// With `manualStart`, the connection that owns ``controlName``; a restart of bluetoothd leaves it.
    var controlConnection: DBusConnection?
    /// Bumped on every (re)start, so work scheduled for an earlier bluetoothd stops.
    var generation = 0
    var cuffs: [CuffState]
    var powered = true
    /// Registered agents by the unique name of their client (one per client, `src/agent.c`).
    var agents: [String: AgentRegistration] = [:]
    var defaultAgentOwner: String?
    /// GattManager1 applications by client and object path, with their GattProfile1 UUIDs.
    var applications: [ApplicationKey: Set<String>] = [:]
    /// Discovery sessions and filters by client (docs/reference/BLUEZ-DBUS.md §2: one session per client).
    var discoverySessions: Set<String> = []
    var discoveryFilters: [String: Set<String>] = [:]
    /// What runs in the background, for `settle()`.
    var background = BackgroundWork()
    private var clientWatch: Task<Void, Never>?

    struct AgentRegistration: Equatable {
        let path: DBusObjectPath
        let capability: String
    }

    struct ApplicationKey: Hashable {
        let owner: String
        let path: DBusObjectPath
    }

    /// With `manualStart`, each `pressStart` step of a timeline waits until a driver presses START on its cuff
    /// (docs/cuff-sim.md, "START pressed by the driver"), and ``start()`` also takes ``controlName`` for that.
    public init(scenario: Scenario, bus: DBusConnection.Bus, manualStart: Bool = false, log: @escaping @Sendable (String) -> Void) {
        self.scenario = scenario
        self.bus = bus
        self.manualStart = manualStart
        self.log = log
        cuffs = scenario.cuffs.map(CuffState.init(spec:))
    }

    /// Connects, exports the adapter and the bonded cuffs, then takes `org.bluez`: a client that
    /// sees the name owned finds the whole tree — and, with `manualStart`, the control a driver presses START through,
    /// taken first.
    public func start() async throws(CuffSimError) {
        if manualStart, controlConnection == nil { try await openControl() }
        let connection: DBusConnection
        do {
            connection = try DBusConnection.open(bus, label: "cuff-sim")
        } catch {
            throw .busUnavailable(error.description)
        }
        self.connection = connection
        generation += 1
        await connection.addObjectManager(at: .root)
        await connection.export([agentManagerInterface()], at: Bluez.root)
        await connection.export([adapterInterface(), gattManagerInterface()], at: Bluez.adapterPath)
        for index in cuffs.indices where cuffs[index].paired {
            await exportDevice(index, discovered: false)
        }
        do {
            clientWatch = try await watchClients(on: connection)
            guard try await connection.requestName(Bluez.serviceName) == .primaryOwner else {
                connection.close()
                throw CuffSimError.nameTaken
            }
        } catch let error as CuffSimError {
            throw error
        } catch {
            throw .busUnavailable("\(error)")
        }
        log("org.bluez ready on \(connection.uniqueName): adapter \(scenario.adapter.address), \(cuffs.count) cuff(s) advertising")
    }

    /// Leaves the bus.
    public func stop() {
        leaveBus()
        controlConnection?.close()
        controlConnection = nil
    }

    /// bluetoothd leaves the bus; the control stays.
    private func leaveBus() {
        clientWatch?.cancel()
        connection?.close()
        connection = nil
    }

    /// bluetoothd restarts: `org.bluez` leaves the bus, links drop, every agent, application,
    /// discovery and notify session is forgotten, and it comes back with the bonded devices only
    /// (docs/reference/BLUEZ-DBUS.md §10).
    func restart() async {
        log("bluetoothd restarting: every registration is dropped")
        leaveBus()
        agents = [:]
        defaultAgentOwner = nil
        applications = [:]
        discoverySessions = []
        discoveryFilters = [:]
        for index in cuffs.indices {
            cuffs[index].pairing?.attempt.cancel()
            if cuffs[index].connected { cuffs[index].advertising = true }
            cuffs[index].linkLost()
            cuffs[index].connecting = false
            cuffs[index].exported = false
            cuffs[index].servicesExported = false
            cuffs[index].databaseKnown = cuffs[index].paired
            cuffs[index].notifySessions = [:]
            cuffs[index].removalToken += 1
        }
        try? await Task.sleep(for: .milliseconds(300))
        do {
            try await start()
        } catch {
            log("bluetoothd did not come back: \(error)")
        }
    }

    // MARK: - Clients leaving the bus

    /// bluetoothd keeps a disconnect watch on every client that registered something
    /// (`src/adapter.c`, `src/agent.c`, `src/gatt-client.c`); this is the one watch for all.
    private func watchClients(on connection: DBusConnection) async throws(DBusError) -> Task<Void, Never> {
        let departures = try await connection.signals(matching: MatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged"))
        return Task { [weak self] in
            for await change in departures {
                guard change.arguments.count == 3, case .string(let name) = change.arguments[0], name.hasPrefix(":"),
                      case .string("") = change.arguments[2] else { continue }
                await self?.clientLeft(name)
            }
        }
    }

    func clientLeft(_ client: String) async {
        if agents.removeValue(forKey: client) != nil { log("agent of \(client) dropped: client left the bus") }
        if defaultAgentOwner == client { defaultAgentOwner = nil }
        applications = applications.filter { $0.key.owner != client }
        discoveryFilters[client] = nil
        if discoverySessions.contains(client) { await endDiscoverySession(of: client) }
        for index in cuffs.indices {
            for characteristic in cuffs[index].notifySessions.keys {
                await endNotifySession(index, characteristic, client: client)
            }
        }
    }

    // MARK: - Helpers

    /// Emits `PropertiesChanged` for an exported object; nothing when the object is gone.
    func update(_ path: DBusObjectPath, _ interface: String, _ changes: [String: DBusValue]) async {
        try? await connection?.setProperties(changes, interface: interface, at: path)
    }

    func cuffIndex(device path: DBusObjectPath) throws(DBusError) -> Int {
        guard let index = cuffs.firstIndex(where: { $0.devicePath == path && $0.exported }) else {
            throw DBusError(.unknownObject, "no device at \(path)")
        }
        return index
    }

    func cuffIndex(attribute path: DBusObjectPath) throws(DBusError) -> (Int, EmulatedCharacteristic) {
        for index in cuffs.indices where path.isDescendant(of: cuffs[index].devicePath) {
            if cuffs[index].connected, let characteristic = cuffs[index].layout.characteristic(at: path) {
                return (index, characteristic)
            }
        }
        throw DBusError(.unknownObject, "no GATT attribute at \(path)")
    }

    func name(_ index: Int) -> String { "\(cuffs[index].spec.name) (\(cuffs[index].spec.address))" }
}

/// Why cuff-sim could not start.
public enum CuffSimError: Error, CustomStringConvertible {
    case busUnavailable(String)
    case nameTaken

    public var description: String {
        switch self {
        case .busUnavailable(let reason): "cannot use the bus: \(reason)"
        case .nameTaken: "org.bluez is already owned on this bus (is bluetoothd or another cuff-sim running?)"
        }
    }
}
