import CuffSimulation
import DBus
import DBusTestSupport
import Testing

/// START pressed by the driver (docs/cuff-sim.md): with `manualStart`, a timeline waits at its `pressStart` step until
/// `org.cuffd.Simulation1.PressStart` names the cuff, and a press made before the step is kept for it.
@Suite("cuff-sim: START pressed by the driver")
struct StartButtonTests {
    static let timeline = #"[{"after": 0.05, "pressStart": true}, {"after": 0.1, "indicate": "2A35", "hex": "\#(ScenarioText.recordB)"}]"#

    /// Calls `PressStart(address)` on cuff-sim's control, as a driver does.
    static func press(_ harness: EmulatorHarness, _ address: String) async throws {
        _ = try await harness.client.call(
            BluezEmulator.controlName, BluezEmulator.controlPath, BluezEmulator.controlInterface, "PressStart", [.string(address)],
            timeout: testDeadline)
    }

    /// The cuff connected and 0x2A35 subscribed, which starts its timeline; the measurement's path and the signals from then on.
    static func subscribed(_ harness: EmulatorHarness) async throws -> (DBusObjectPath, StreamRecorder<DBusMessage>) {
        try await harness.discover()
        try await harness.connectAndResolve()
        let measurement = try await harness.characteristicPath("2a35")
        let signals = try await harness.recordSignals()
        try await harness.startNotify(measurement)
        return (measurement, signals)
    }

    @Test("The timeline waits at pressStart until PressStart; then the steps after it play; an unknown or malformed address is refused")
    func waitsForThePress() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(storedRecords: [ScenarioText.recordA], timeline: Self.timeline), manualStart: true)
            teardown.add { await harness.stop() }
            let (measurement, signals) = try await Self.subscribed(harness)
            // The timeline logs this right before it waits: the stored record has gone out, nothing after the step has.
            try await harness.events.waitFor("\(EmulatorHarness.cuffName) waiting for START")
            try await harness.sync(signals)
            #expect(signals.all.compactMap { $0.changes(measurement)?["Value"] } == [.bytes(bytes(ScenarioText.recordA))])

            let unknown = await #expect(throws: DBusError.self) { try await Self.press(harness, "00:11:22:33:44:55") }
            #expect(unknown?.name == .unknownObject)
            let malformed = await #expect(throws: DBusError.self) { try await Self.press(harness, "START") }
            #expect(malformed?.name == .invalidArgs)
            try await Self.press(harness, EmulatorHarness.address.description)
            let indicated = try await signals.next { $0.changes(measurement)?["Value"] == .bytes(bytes(ScenarioText.recordB)) }
            #expect(indicated.changes(measurement) != nil)
            #expect(harness.events.count("\(EmulatorHarness.cuffName) START pressed") == 1)
        }
    }

    @Test("A press before the timeline reaches pressStart is kept: the step passes at once")
    func keepsAnEarlyPress() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(timeline: Self.timeline), manualStart: true)
            teardown.add { await harness.stop() }
            try await Self.press(harness, EmulatorHarness.address.description)
            try await harness.events.waitFor("START pressed before its timeline waits for it: kept")
            let (measurement, signals) = try await Self.subscribed(harness)
            _ = try await signals.next { $0.changes(measurement)?["Value"] == .bytes(bytes(ScenarioText.recordB)) }
            try await harness.settle(signals)
            #expect(harness.events.count("waiting for START") == 0)
        }
    }

    @Test("Without manualStart, pressStart passes at its time and nobody need press")
    func passesWithoutManualStart() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(timeline: Self.timeline))
            teardown.add { await harness.stop() }
            let (measurement, signals) = try await Self.subscribed(harness)
            _ = try await signals.next { $0.changes(measurement)?["Value"] == .bytes(bytes(ScenarioText.recordB)) }
            #expect(harness.events.count("\(EmulatorHarness.cuffName) START pressed") == 1)
            #expect(harness.events.count("waiting for START") == 0)
        }
    }
}
