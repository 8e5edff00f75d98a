import BlueZ
import CuffSimulation
import DBus
import DBusTestSupport
import Foundation
import Gateway
import GatewayTestSupport
import GATTHealth
import Testing

/// cuff-sim on a private bus with a Gateway beside it, storing into memory: the whole Bluetooth half of
/// cuffd, driven the way `cuffctl` and the VM acceptance suite drive it. Its waits are on the Gateway's events,
/// each bounded by ``deadline``, which only turns a hang into a failure.
final class GatewayHarness: Sendable {
    /// The most any one wait of a test over cuff-sim takes before it fails: generous, for a loaded machine.
    static let deadline: Duration = .seconds(60)

    let bus: PrivateBus
    let emulator: BluezEmulator
    let connection: DBusConnection
    let gateway: CuffGateway
    let store = InMemoryReadingStore()
    /// What the Gateway remembers of each cuff (its keys, identities, sequence numbers).
    let registry: any CuffRegistry
    let scenario: Scenario
    let log = LineLog()
    let events: EventRecorder<GatewayEvent>

    static let folder = EmbeddedPeripheral.scenarioFolder

    convenience init(scenarioFile name: String, configuration: GatewayConfiguration = GatewayConfiguration(), manualStart: Bool = false) async throws {
        try await self.init(Data(contentsOf: Self.folder.appendingPathComponent(name)), configuration: configuration, manualStart: manualStart)
    }

    /// A harness whose configuration maps the cuff at `address`'s User IDs to people.
    convenience init(scenarioFile name: String, people: [UInt8: String], on address: String) async throws {
        var configuration = GatewayConfiguration()
        for (user, person) in people { configuration.users.assign(person, to: user, of: address) }
        try await self.init(scenarioFile: name, configuration: configuration)
    }

    /// Runs `body` once every cuff of `name` is paired and the store holds the scenario's readings; stops after.
    static func afterExpectedReadings(
        _ name: String, people: [UInt8: String] = [:], on address: String = "", _ body: (GatewayHarness) async throws -> Void
    ) async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: name, people: people, on: address)
            teardown.add { await harness.stop() }
            try await harness.pairAll()
            try await harness.waitForExpectedReadings()
            try await body(harness)
        }
    }

    /// With `manualStart`, a timeline's `pressStart` step waits for ``pressStart(_:)`` (docs/cuff-sim.md, "START pressed by
    /// the driver").
    init(
        _ scenarioJSON: Data, configuration: GatewayConfiguration = GatewayConfiguration(), registry: any CuffRegistry = InMemoryCuffRegistry(),
        spool: any ReadingSpool = NoSpool(), manualStart: Bool = false
    ) async throws {
        scenario = try Scenario.parse(scenarioJSON)
        self.registry = registry
        bus = try PrivateBus()
        let log = log
        emulator = BluezEmulator(scenario: scenario, bus: .address(bus.address), manualStart: manualStart) { log.append($0) }
        try await emulator.start()
        connection = try DBusConnection.open(.address(bus.address), label: "cuffd", callTimeout: testDeadline)
        gateway = CuffGateway(bluetooth: BluezClient(connection: connection), store: store, registry: registry, configuration: configuration, spool: spool)
        events = EventRecorder(await gateway.events())
        try await gateway.start()
    }

    deinit { connection.close() }

    func stop() async {
        await gateway.stop()
        connection.close()
        await emulator.stop()
    }

    /// Pairs every cuff of the scenario, with the passkey its file says it displays; fails saying what cuff-sim shows.
    func pairAll() async throws {
        for cuff in scenario.cuffs {
            let passkey: UInt32? = if case .passkey(let key) = cuff.pairing { key } else { nil }
            do {
                _ = try await gateway.pair(cuff.address, passkey: passkey, timeout: .seconds(30))
            } catch {
                throw TestFailure("\(error)\ncuff-sim:\n\(log.all.joined(separator: "\n"))")
            }
        }
    }

    /// Presses START on each cuff of `addresses` (every cuff of the scenario when nil): a timeline waiting at its
    /// `pressStart` step goes on, one that has none keeps the press unused.
    func pressStart(_ addresses: [BluetoothAddress]? = nil) async throws {
        for address in addresses ?? scenario.cuffs.map(\.address) { try await emulator.pressStart(cuffAt: address) }
    }

    /// The next Gateway event `predicate` accepts, within ``deadline``.
    @discardableResult
    func next(where predicate: @escaping @Sendable (GatewayEvent) -> Bool) async throws -> GatewayEvent {
        try await events.next(within: Self.deadline, where: predicate)
    }

    /// Waits until the store holds exactly the scenario's expected readings and number of heart-rate samples, looking
    /// again each time the Gateway announces something (every commit is announced); fails, saying what the store and
    /// cuff-sim show, when ``deadline`` passes without an event.
    func waitForExpectedReadings() async throws {
        let heartRates = scenario.expect?.heartRates ?? 0
        while true {
            let seen = events.all.count
            let (readings, storedHeartRates) = (await store.readings.map(ExpectedReading.init), await store.heartRates.count)
            let (missing, unexpected) = scenario.expect?.unmatched(readings) ?? ([], readings)
            if missing.isEmpty && unexpected.isEmpty && storedHeartRates == heartRates { return }
            do {
                guard unexpected.isEmpty && storedHeartRates <= heartRates else { throw TestFailure("more than expected is stored") }
                // Whatever is stored next is announced after what was seen.
                let events = events
                try await withDeadline(Self.deadline, "no Gateway event") { try await events.recorded(moreThan: seen) }
            } catch {
                let problems = events.all.compactMap { event -> String? in if case let .problem(address, text) = event { "\(address): \(text)" } else { nil } }
                throw TestFailure("""
                    \(error): store lacks \(missing), holds unexpected \(unexpected); \(storedHeartRates) heart rates, expected \(heartRates)
                    Gateway problems:\n\(problems.joined(separator: "\n"))
                    cuff-sim:\n\(log.all.joined(separator: "\n"))
                    """)
            }
        }
    }
}
