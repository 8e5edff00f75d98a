import BlueZ
import CLinux
import DBus
import Foundation
import GATTHealth
import Gateway
import HealthStore
import Logging
import ServiceLifecycle
import Synchronization
import SystemdSupport

/// cuffd running: the store, two bus connections — one for the control API, one for the BlueZ client, so that
/// bluetoothd's signals never wait behind clients' calls on the way in —, the Gateway between them. ``start(_:notifier:logger:)`` does every step that can fail for a reason a person
/// must fix, in order, each with its own exit status; ``run()`` is the swift-service-lifecycle service:
/// ready, status, watchdog, the journal, until graceful shutdown (SIGTERM/SIGINT).
public final class Daemon: Service, Sendable {
    /// The control API's connection, which owns `org.cuffd.Gateway1`.
    let connection: DBusConnection
    /// The BlueZ client's.
    let bluetoothConnection: DBusConnection
    let gateway: CuffGateway
    let api: ControlAPI
    let notifier: ServiceNotifier
    let log: GatewayLog
    let logger: Logger
    /// The Gateway's events for the control API and for the journal, subscribed to before the Gateway starts:
    /// the cuffs it adopts at start-up (bonded before a restart) are announced then, and must reach both.
    let apiEvents: AsyncStream<GatewayEvent>
    let logEvents: AsyncStream<GatewayEvent>
    /// Graceful shutdown has begun: the connection closing then is cuffd's own doing.
    let isStopping = Mutex(false)

    private init(
        connection: DBusConnection, bluetoothConnection: DBusConnection, gateway: CuffGateway, api: ControlAPI, notifier: ServiceNotifier, log: GatewayLog, logger: Logger,
        events: (api: AsyncStream<GatewayEvent>, log: AsyncStream<GatewayEvent>)
    ) {
        self.connection = connection
        self.bluetoothConnection = bluetoothConnection
        self.gateway = gateway
        self.api = api
        self.notifier = notifier
        self.log = log
        self.logger = logger
        (apiEvents, logEvents) = events
    }

    /// Configuration → store → bus → control API → bus name → BlueZ. READY follows in ``run()``, once all
    /// of these stand (docs/reference/BLUEZ-DBUS.md §16).
    public static func start(_ options: DaemonOptions, notifier: ServiceNotifier, logger: Logger) async throws(StartupError) -> Daemon {
        let configuration = try options.loadConfiguration()
        let storePath = options.storePath ?? configuration.storePath
        let policy = AccessPolicy(administratorGroupName: options.administratorGroup, readerGroupName: options.readerGroup)
        var storeConfiguration = StoreConfiguration()
        storeConfiguration.adminGroup = policy.administratorGroup
        storeConfiguration.sourceVersion = options.version
        let store: HealthStore
        let registry: CuffRegistryFile
        do {
            store = try HealthStore.open(path: storePath, configuration: storeConfiguration)
        } catch .unsupportedSchema(let why) {
            // Both releases in one line: the store's, and this cuffd's.
            throw .store(path: storePath, reason: "\(HealthStoreError.unsupportedSchema(why)) — this is cuffd \(options.version)")
        } catch {
            throw .store(path: storePath, reason: error.description)
        }
        let registryPath = URL(fileURLWithPath: storePath).deletingLastPathComponent().appendingPathComponent("cuffs.json").path
        do {
            registry = try CuffRegistryFile(path: registryPath, storeIdentifier: store.identifier())
        } catch {
            throw .store(path: registryPath, reason: "\(error)")
        }
        if registry.setAside > 0 {
            logger.warning("\(registryPath) belonged to another store; its \(registry.setAside) cuff(s) will be identified again and their records downloaded again on their next connection")
        }
        let spoolPath = URL(fileURLWithPath: storePath).deletingLastPathComponent().appendingPathComponent("pending.spool").path
        let spool: SpoolFile
        do {
            spool = try SpoolFile(path: spoolPath, logger: logger)
        } catch {
            throw .store(path: spoolPath, reason: "\(error)")
        }
        let connection: DBusConnection, bluetoothConnection: DBusConnection
        do {
            connection = try DBusConnection.open(options.bus, label: "cuffd")
        } catch {
            throw .bus(error.description)
        }
        do {
            bluetoothConnection = try DBusConnection.open(options.bus, label: "cuffd-bluez")
        } catch {
            connection.close()
            throw .bus(error.description)
        }
        // Both connections, when start-up stops after they opened.
        func closeConnections() {
            connection.close()
            bluetoothConnection.close()
        }
        await connection.runMethodCalls(on: options.methodCallExecutor)
        let gateway = CuffGateway(
            bluetooth: BluezClient(connection: bluetoothConnection), store: HealthStoreReadingStore(store: store), registry: registry,
            configuration: configuration.gatewayConfiguration, spool: spool)
        let api = ControlAPI(
            connection: connection, gateway: gateway, store: store, policy: policy, version: options.version, logger: logger,
            people: configuration.people)
        await api.export()
        do {
            switch try await connection.requestName(ControlAPI.busName) {
            case .primaryOwner, .alreadyOwner: break
            case .exists, .inQueue: throw StartupError.nameTaken
            }
        } catch let error as StartupError {
            closeConnections()
            throw error
        } catch {
            closeConnections()
            throw .nameDenied("\(error)")
        }
        let events = (api: await gateway.events(), log: await gateway.events())
        do {
            try await gateway.start()
        } catch {
            closeConnections()
            throw .bluetooth("\(error)")
        }
        return Daemon(
            connection: connection, bluetoothConnection: bluetoothConnection, gateway: gateway, api: api, notifier: notifier,
            log: GatewayLog(detail: configuration.journalDetail, logger: logger), logger: logger, events: events)
    }

    /// How long after READY start-up's code is dropped from memory: what follows READY (the journal's first entries,
    /// the control API's and the buses' tasks) runs within a fraction of a second of it.
    static let settling: Duration = .seconds(2)

    public func run() async throws {
        let status = await statusLine()
        await api.setStatus(status)
        notifier.ready(status: status)
        logger.notice("cuffd ready: \(status)")
        // What start-up ran (argument parsing, the store's migrations, the first calls to bluetoothd) leaves memory
        // until it runs again, once the work that follows READY is done (Benchmarks/RESULTS.md, "On a small board").
        Task {
            try? await Task.sleep(for: Self.settling)
            Self.releaseMemory()
        }
        let busEvents = [connection.events(), bluetoothConnection.events()]
        try await withThrowingTaskGroup(of: Bool.self) { group in
            // Each task says whether its end is the daemon's end: the shutdown sequence, or a lost bus.
            group.addTask { await self.api.follow(self.apiEvents); return false }
            group.addTask { await self.follow(self.logEvents); return false }
            if let interval = notifier.watchdogPingInterval {
                group.addTask { await self.watchdog(every: interval); return false }
            }
            // Without its bus cuffd can do nothing: exit, and let systemd start it again (Restart=on-failure).
            for events in busEvents {
                group.addTask {
                    for await event in events where event == .disconnected && !self.isStopping.withLock({ $0 }) {
                        throw DaemonFailure.busLost
                    }
                    return false
                }
            }
            group.addTask {
                try? await gracefulShutdown()
                self.isStopping.withLock { $0 = true }
                self.notifier.stopping(status: "Quitting")
                self.logger.notice("cuffd stopping")
                _ = try? await self.connection.releaseName(ControlAPI.busName)
                try? await self.gateway.stopMeasurement(nil)
                await self.gateway.stop()
                self.connection.close()
                self.bluetoothConnection.close()
                return true
            }
            // The shutdown sequence ending, or any task failing, ends the rest: the watchdog and the bus
            // watch would otherwise wait forever (and systemd would kill cuffd at TimeoutStopSec).
            defer { group.cancelAll() }
            while let finished = try await group.next() {
                if finished { return }
            }
        }
    }

    /// What the work just done leaves behind, given back (Benchmarks/RESULTS.md, "On a small board"): the pages of
    /// cuffd's own file it ran and read (`cuffd_release_executable_pages`, docs/cuffd.md), and the heap's free pages
    /// (malloc_trim(3)) — glibc keeps what a commit or a link freed in its heaps, and gives back only a free top of the
    /// main one by itself: 0.1–0.25 MiB of heap while a strap streams, for a walk of the heaps once a batch.
    static func releaseMemory() {
        _ = cuffd_release_executable_pages()
        _ = malloc_trim(0)
    }

    /// The journal, and the status line for systemd and `org.cuffd.Gateway1.Status`.
    private func follow(_ events: AsyncStream<GatewayEvent>) async {
        for await event in events {
            log.log(event)
            switch event {
            case .bluetoothAvailable, .cuffChanged, .cuffRemoved, .session(_, .readingStored):
                let status = await statusLine()
                notifier.status(status)
                await api.setStatus(status)
            case .session(_, .stateChanged(.disconnected)), .session(_, .heartRatesStored):
                // A link's code — its provisioning, decoding, commits — leaves memory with the link, as start-up's does;
                // while a sensor streams, what a batch's commit ran leaves with each batch.
                Self.releaseMemory()
            default:
                break
            }
        }
    }

    /// `WATCHDOG=1` only after a round trip through each bus connection: it proves the loop and the connections
    /// that serve BlueZ and the API are alive, not merely a timer (docs/reference/BLUEZ-DBUS.md §16).
    private func watchdog(every interval: Duration) async {
        while !Task.isCancelled {
            if (try? await connection.nameOwner(of: ControlAPI.busName)) == connection.uniqueName,
               (try? await bluetoothConnection.nameOwner(of: ControlAPI.busName)) == connection.uniqueName {
                notifier.watchdog()
            }
            guard (try? await Task.sleep(for: interval)) != nil else { return }
        }
    }

    /// One line: Bluetooth, cuffs, connections, the last reading.
    func statusLine() async -> String {
        let cuffs = await gateway.cuffStatuses
        let adapter = await gateway.currentAdapter
        let bluetooth = adapter.map { $0.powered ? "Bluetooth on \($0.interfaceName)" : "adapter \($0.interfaceName) powered off" }
            ?? "waiting for bluetoothd and an adapter"
        let connected = cuffs.filter(\.connected).count
        var line = "\(bluetooth); \(cuffs.count) cuff\(cuffs.count == 1 ? "" : "s"), \(connected) connected"
        if let last = cuffs.compactMap({ cuff in cuff.lastReadingAt.map { ($0, cuff.address) } }).max(by: { $0.0 < $1.0 }) {
            line += "; last reading \(DateTime(utc: last.0).isoString ?? "?")Z from \(last.1)"
        }
        return line
    }
}

/// Why a running cuffd stops on its own.
public enum DaemonFailure: Error, CustomStringConvertible {
    /// The bus connection went away (dbus-daemon stopped or restarted).
    case busLost

    public var exitStatus: Int32 { 69 }
    public var description: String { "the bus connection was lost" }
}
