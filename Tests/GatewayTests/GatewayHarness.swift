import BlueZ
import CuffSimulation
import DBus
import DBusTestSupport
import Foundation
import Gateway
import GATTHealth
import Testing

/// cuff-sim on a private bus with a Gateway beside it, storing into memory: the whole Bluetooth half of
/// cuffd, driven the way `cuffctl` and the VM acceptance suite drive it.
final class GatewayHarness: Sendable {
    let bus: PrivateBus
    let emulator: BluezEmulator
    let connection: DBusConnection
    let gateway: CuffGateway
    let store = InMemoryReadingStore()
    /// What the Gateway remembers of each cuff (its keys, identities, sequence numbers).
    let registry: any CuffRegistry
    let scenario: Scenario
    let log = LineLog()
    let events: StreamRecorder<GatewayEvent>

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenarios")

    convenience init(scenarioFile name: String, configuration: GatewayConfiguration = GatewayConfiguration()) async throws {
        try await self.init(Data(contentsOf: Self.folder.appendingPathComponent(name)), configuration: configuration)
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

    init(
        _ scenarioJSON: Data, configuration: GatewayConfiguration = GatewayConfiguration(), registry: any CuffRegistry = InMemoryCuffRegistry(),
        spool: any ReadingSpool = NoSpool()
    ) async throws {
        scenario = try Scenario.parse(scenarioJSON)
        self.registry = registry
        bus = try PrivateBus()
        let log = log
        emulator = BluezEmulator(scenario: scenario, bus: .address(bus.address)) { log.append($0) }
        try await emulator.start()
        connection = try DBusConnection.open(.address(bus.address), label: "cuffd")
        gateway = CuffGateway(bluez: BluezClient(connection: connection), store: store, registry: registry, configuration: configuration, spool: spool)
        events = StreamRecorder(await gateway.events())
        try await gateway.start()
    }

    deinit { connection.close() }

    func stop() async {
        await gateway.stop()
        connection.close()
        await emulator.stop()
    }

    /// Pairs every cuff of the scenario, with the passkey its file says it displays.
    func pairAll() async throws {
        for cuff in scenario.cuffs {
            let passkey: UInt32? = if case .passkey(let key) = cuff.pairing { key } else { nil }
            _ = try await gateway.pair(cuff.address, passkey: passkey, timeout: .seconds(10))
        }
    }

    /// Waits until `cuff` is in the registry: the Gateway remembers a cuff once it is identified, which a link lost
    /// mid-way (on a loaded machine) defers to the next link, after `pair` has returned.
    func waitUntilRemembered(_ cuff: BluetoothAddress, within timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while await registry.records()[cuff] == nil {
            guard ContinuousClock.now < deadline else { throw TestFailure("\(cuff) not remembered within \(timeout)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The store's readings on the fields a scenario's expectation names.
    func storedReadings() async -> [ExpectedReading] {
        await store.readings.map(Self.observed)
    }

    /// Waits until the store holds exactly the scenario's expected readings and number of heart-rate samples.
    func waitForExpectedReadings(within timeout: Duration = .seconds(30)) async throws {
        let heartRates = scenario.expect?.heartRates ?? 0
        let deadline = ContinuousClock.now + timeout
        while true {
            let (readings, storedHeartRates) = (await storedReadings(), await store.heartRates.count)
            let (missing, unexpected) = scenario.expect?.unmatched(readings) ?? ([], readings)
            if missing.isEmpty && unexpected.isEmpty && storedHeartRates == heartRates { return }
            guard ContinuousClock.now < deadline else {
                let problems = events.all.compactMap { event -> String? in if case let .problem(address, text) = event { "\(address): \(text)" } else { nil } }
                throw TestFailure("""
                    store lacks \(missing), holds unexpected \(unexpected); \(storedHeartRates) heart rates, expected \(heartRates)
                    Gateway problems:\n\(problems.joined(separator: "\n"))
                    cuff-sim:\n\(log.all.joined(separator: "\n"))
                    """)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    static func observed(_ reading: Reading) -> ExpectedReading {
        ExpectedReading(
            stored: reading.device.address, systolic: reading.systolic.doubleValue, diastolic: reading.diastolic.doubleValue,
            pulseRate: reading.pulseRate?.doubleValue, userID: reading.userID, deviceTime: reading.deviceTime?.isoString, status: reading.status)
    }
}
