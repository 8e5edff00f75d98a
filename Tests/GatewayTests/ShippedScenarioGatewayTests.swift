import BlueZ
import DBusTestSupport
import Foundation
import CuffSimulation
import Gateway
import GatewayTestSupport
import Testing

/// Every shipped scenario over cuff-sim: the Gateway pairs each cuff and, with nothing else asked of it,
/// ends with exactly the readings the scenario expects — through link drops, wakes, re-sent histories,
/// a bluetoothd restart, malformed packets — and reports the failed measurements it expects. One scenario at a time,
/// as the capture round trip over cuff-sim: 31 real-time cuffs, Gateways and mirrors at once beside the rest of the
/// parallel suite starved their own timelines on two cores (docs/testing.md, "What is still timed").
@Suite("Gateway over cuff-sim: the shipped scenarios", .serialized)
struct ShippedScenarioGatewayTests {
    static let names = ((try? FileManager.default.contentsOfDirectory(atPath: GatewayHarness.folder.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()

    @Test(arguments: names)
    func endsWithTheExpectedReadings(_ name: String) async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: name, manualStart: true)
            teardown.add { await harness.stop() }
            try await harness.pairAll()
            // START pressed once every cuff's pairing link brought what it brings: a cuff that presses START before it
            // drops that link (docs/cuff-sim.md) cannot cut its provisioning short.
            try await harness.pressStart()
            // A cuff that measures on a vendor command (QardioArm's `onStart`) is started, as `cuffctl start` does.
            for cuff in harness.scenario.cuffs where !cuff.onStart.isEmpty {
                _ = try await harness.gateway.startMeasurement(cuff.address, timeout: .seconds(60))
            }
            try await harness.waitForExpectedReadings()
            Self.expectFailuresAndNoDuplicates(harness.events.all, harness.scenario)
        }
    }

    /// The failed measurements the scenario expects were reported, and no commit recognized a reading as new twice.
    static func expectFailuresAndNoDuplicates(_ events: [GatewayEvent], _ scenario: Scenario) {
        let failed = events.filter { if case .session(_, .measurementFailed) = $0 { true } else { false } }
        #expect(failed.count == scenario.expect?.failedMeasurements ?? 0)
        let stored = events.compactMap { event -> String? in
            if case .session(_, .readingStored(let reading, .stored)) = event { reading.syncIdentifier } else { nil }
        }
        #expect(Set(stored).count == stored.count)
    }
}

/// The shipped scenarios in-process: each cuff's GATT database, stored records, BPS 1.1 record memory, QardioArm start
/// and Omron memory as cuff-sim has them, on the in-memory central; the timeline played step by step once the cuffs are paired.
@Suite("Gateway in-process: the shipped scenarios", .timeLimit(.minutes(1)))
struct ShippedScenarioInProcessTests {
    @Test(arguments: ShippedScenarioGatewayTests.names)
    func endsWithTheExpectedReadings(_ name: String) async throws {
        let run = try await ScenarioRun.start(name)
        try await run.pairAll()
        for cuff in run.scenario.cuffs where !cuff.onStart.isEmpty {
            _ = try await run.gateway.startMeasurement(cuff.address, timeout: .seconds(60))
        }
        await run.playTimelines()
        try await run.waitForExpectedReadings()
        ShippedScenarioGatewayTests.expectFailuresAndNoDuplicates(run.rig.events.all, run.scenario)
        await run.rig.stop()
    }
}
