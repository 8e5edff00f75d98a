import BlueZ
import DBusTestSupport
import Foundation
import Gateway
import Testing

/// Every shipped scenario over cuff-sim: the Gateway pairs each cuff and, with nothing else asked of it,
/// ends with exactly the readings the scenario expects — through link drops, wakes, re-sent histories,
/// a bluetoothd restart, malformed packets — and reports the failed measurements it expects.
@Suite("Gateway over cuff-sim: the shipped scenarios")
struct ShippedScenarioGatewayTests {
    static let names = ((try? FileManager.default.contentsOfDirectory(atPath: GatewayHarness.folder.path)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted()

    @Test(arguments: names)
    func endsWithTheExpectedReadings(_ name: String) async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: name)
            teardown.add { await harness.stop() }
            try await harness.pairAll()
            // A cuff that measures on a vendor command (QardioArm's `onStart`) is started, as `cuffctl start` does.
            for cuff in harness.scenario.cuffs where !cuff.onStart.isEmpty {
                _ = try await harness.gateway.startMeasurement(cuff.address, timeout: .seconds(60))
            }
            try await harness.waitForExpectedReadings()
            let failed = harness.events.all.filter { if case .session(_, .measurementFailed) = $0 { true } else { false } }
            #expect(failed.count == harness.scenario.expect?.failedMeasurements ?? 0)
            // Stored once: no commit recognized a reading as new twice.
            let stored = harness.events.all.compactMap { event -> String? in
                if case .session(_, .readingStored(let reading, .stored)) = event { reading.syncIdentifier } else { nil }
            }
            #expect(Set(stored).count == stored.count)
        }
    }
}
