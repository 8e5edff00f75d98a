import BlueZ
import CuffRecording
import CuffSimulation
import DBusTestSupport
import Foundation
import Gateway
import GatewayTestSupport
import Testing

/// The capture round trip (docs/capture.md) for every shipped scenario: each cuff captured while the Gateway pairs it
/// and collects from it as usual, the captures replayed as recorded cuffs to a fresh Gateway, which must then store
/// exactly what the original scenario expects — under the stand-in addresses the redaction gave the cuffs. One
/// scenario at a time: each runs two cuff-sims and two Gateways in real time, and 23 of them at once beside the rest
/// of the suite starve the scenario timelines every other test plays on the same two cores (docs/testing.md, "What is
/// still timed").
@Suite("Capture round trip over cuff-sim: the shipped scenarios", .serialized)
struct CaptureRoundTripTests {
    @Test(arguments: ShippedScenarioGatewayTests.names)
    func theReplayStoresWhatTheOriginalExpects(_ name: String) async throws {
        try await withTeardown { teardown in
            let original = try await GatewayHarness(scenarioFile: name, manualStart: true)
            teardown.add { await original.stop() }
            var captures: [CuffCapture] = []
            for cuff in original.scenario.cuffs { captures.append(try await original.gateway.startCapture(cuff.address)) }
            try await original.pairAll()
            // As in ShippedScenarioGatewayTests: the pairing link is not dropped before its provisioning is over.
            try await original.pressStart()
            try await Self.startVendorMeasurements(original.gateway, original.scenario, at: original.scenario.cuffs.map(\.address))
            try await original.waitForExpectedReadings()
            var recordings: [RecordedScenario] = []
            for capture in captures {
                await capture.walkEnded()
                recordings.append(try await original.gateway.finishCapture(capture, keepIdentity: false))
            }
            await original.stop()

            let replay = try await GatewayHarness(CaptureReplay.scenario(recordings, replaying: name))
            teardown.add { await replay.stop() }
            try await replay.pairAll()
            try await Self.startVendorMeasurements(replay.gateway, original.scenario, at: replay.scenario.cuffs.map(\.address))
            try await replay.waitForExpectedReadings()
            ShippedScenarioGatewayTests.expectFailuresAndNoDuplicates(replay.events.all, original.scenario)
        }
    }

    /// Starts a measurement, as `cuffctl start` does, on each cuff whose counterpart in `original` measures only when
    /// told (QardioArm's `onStart`); `addresses` are the cuffs' in the run, in the original's order.
    static func startVendorMeasurements(_ gateway: CuffGateway, _ original: Scenario, at addresses: [BluetoothAddress]) async throws {
        for (cuff, address) in zip(original.cuffs, addresses) where !cuff.onStart.isEmpty {
            _ = try await gateway.startMeasurement(address, timeout: .seconds(60))
        }
    }
}

/// The same round trip in-process, in virtual time: each scenario's cuffs on the in-memory central, captured while the
/// Gateway collects, their recordings replayed there too, a step at a time.
@Suite("Capture round trip in-process: the shipped scenarios", .timeLimit(.minutes(1)))
struct CaptureRoundTripInProcessTests {
    @Test(arguments: ShippedScenarioGatewayTests.names)
    func theReplayStoresWhatTheOriginalExpects(_ name: String) async throws {
        let original = try await ScenarioRun.start(name)
        var captures: [CuffCapture] = []
        for cuff in original.scenario.cuffs { captures.append(try await original.gateway.startCapture(cuff.address)) }
        try await original.pairAll()
        try await CaptureRoundTripTests.startVendorMeasurements(original.gateway, original.scenario, at: original.scenario.cuffs.map(\.address))
        await original.playTimelines()
        try await original.waitForExpectedReadings()
        var recordings: [RecordedScenario] = []
        for capture in captures {
            await capture.walkEnded()
            recordings.append(try await original.gateway.finishCapture(capture, keepIdentity: false))
        }
        await original.rig.stop()

        let replay = try await ScenarioRun.start(Scenario.parse(CaptureReplay.scenario(recordings, replaying: name)))
        try await replay.pairAll()
        try await CaptureRoundTripTests.startVendorMeasurements(replay.gateway, original.scenario, at: replay.scenario.cuffs.map(\.address))
        await replay.playRecordings()
        try await replay.waitForExpectedReadings()
        ShippedScenarioGatewayTests.expectFailuresAndNoDuplicates(replay.rig.events.all, original.scenario)
        await replay.rig.stop()
    }
}
