import BlueZ
import CuffSimulation
import DBusTestSupport
import Gateway

/// A scenario file's cuffs (scenarios/README.md) on an in-process Gateway: paired as `cuffctl pair` pairs them,
/// their timelines played one step at a time, each handled before the next, and the store checked against the
/// file's `expect` once the Gateway announces what it stored.
public struct ScenarioRun: Sendable {
    public let scenario: Scenario
    public let rig: EmbeddedGateway

    public var gateway: CuffGateway { rig.gateway }
    public var central: EmbeddedCentral { rig.central }

    /// The shipped scenario `name`, with `edits` (text → replacement) made to its file, on a Gateway configured by
    /// `configuration`.
    public static func start(
        _ name: String, _ edits: [String: String] = [:], configuration: GatewayConfiguration = GatewayConfiguration(),
        registry: any CuffRegistry = InMemoryCuffRegistry()
    ) async throws -> ScenarioRun {
        try await start(EmbeddedPeripheral.scenario(name, edits), configuration: configuration, registry: registry)
    }

    /// `scenario`'s cuffs on a Gateway configured by `configuration`.
    public static func start(
        _ scenario: Scenario, configuration: GatewayConfiguration = GatewayConfiguration(), registry: any CuffRegistry = InMemoryCuffRegistry()
    ) async throws -> ScenarioRun {
        let rig = try await EmbeddedGateway.start(scenario.cuffs.map(EmbeddedPeripheral.init), configuration: configuration, registry: registry)
        return ScenarioRun(scenario: scenario, rig: rig)
    }

    /// A configuration that maps the User IDs of the cuff at `address` to people.
    public static func configuration(people: [UInt8: String], on address: String) -> GatewayConfiguration {
        var configuration = GatewayConfiguration()
        for (user, person) in people { configuration.users.assign(person, to: user, of: address) }
        return configuration
    }

    /// Runs `body` once every cuff of scenario `name` is paired, its timeline played and the store holds the
    /// expected readings; stops the Gateway after.
    public static func afterExpectedReadings(
        _ name: String, configuration: GatewayConfiguration = GatewayConfiguration(), _ body: (ScenarioRun) async throws -> Void
    ) async throws {
        let run = try await start(name, configuration: configuration)
        try await run.pairAll()
        await run.playTimelines()
        try await run.waitForExpectedReadings()
        try await body(run)
        await run.rig.stop()
    }

    /// Pairs every cuff, with the passkey its file says it displays.
    public func pairAll() async throws {
        for cuff in scenario.cuffs {
            let passkey: UInt32? = if case .passkey(let key) = cuff.pairing { key } else { nil }
            _ = try await gateway.pair(cuff.address, passkey: passkey, timeout: .seconds(10))
        }
    }

    /// Plays every cuff's timeline, one cuff after the other, each step handled by the Gateway before the next.
    public func playTimelines() async {
        for cuff in scenario.cuffs {
            for step in cuff.timeline {
                await central.perform(step.action, on: cuff.address)
                await rig.settled()
            }
        }
    }

    /// Makes every recorded cuff do what it does by itself, one step at a time, each handled before the next, until
    /// none does anything more without a write (``EmbeddedCentral/stepRecording(_:)``).
    public func playRecordings() async {
        var stepped = true
        while stepped {
            stepped = false
            for cuff in scenario.cuffs where cuff.recorded != nil {
                while await central.stepRecording(cuff.address) {
                    stepped = true
                    await rig.settled()
                }
            }
        }
    }

    /// The store's readings on the fields a scenario's expectation names.
    public func storedReadings() async -> [ExpectedReading] {
        await rig.store.readings.map(ExpectedReading.init)
    }

    /// Waits until the store holds exactly the expected readings and number of heart-rate samples, looking again
    /// each time the Gateway announces something (every commit is announced).
    public func waitForExpectedReadings() async throws {
        let heartRates = scenario.expect?.heartRates ?? 0
        while true {
            let seen = rig.events.all.count
            let (readings, storedHeartRates) = (await storedReadings(), await rig.store.heartRates.count)
            let (missing, unexpected) = scenario.expect?.unmatched(readings) ?? ([], readings)
            if missing.isEmpty && unexpected.isEmpty && storedHeartRates == heartRates { return }
            guard unexpected.isEmpty && storedHeartRates <= heartRates else {
                throw TestFailure("store holds unexpected \(unexpected), lacks \(missing); \(storedHeartRates) heart rates, expected \(heartRates)")
            }
            // Whatever is stored next is announced after what was seen.
            try await rig.events.recorded(moreThan: seen)
        }
    }
}

extension ExpectedReading {
    /// `reading` on the fields a scenario's expectation names.
    public init(_ reading: Reading) {
        self.init(
            stored: reading.device.address, systolic: reading.systolic.doubleValue, diastolic: reading.diastolic.doubleValue,
            pulseRate: reading.pulseRate?.doubleValue, userID: reading.userID, deviceTime: reading.deviceTime?.isoString, status: reading.status)
    }
}
