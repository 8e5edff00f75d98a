import DBus
import DBusTestSupport
import Testing

/// A cuff that forgets its side of the bond after every link (`forgetsBondAfterLink`, docs/cuff-sim.md; the Omron
/// HEM-7188T1 as hass-omron reads it, docs/omron.md §6).
@Suite("cuff-sim: a cuff that forgets its bond after each link")
struct ForgottenBondTests {
    @Test("A link over the bond bluetoothd kept is an authentication failure; after RemoveDevice a fresh Pair links it again")
    func onlyAFreshBondLinks() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(
                pairing: "justWorks", timeline: #"[{"after": 0.1, "disconnect": true}, {"after": 0.3, "advertise": true}]"#,
                extra: #""forgetsBondAfterLink": true"#))
            teardown.add { await harness.stop() }
            // Enabling indications starts the timeline: the cuff drops the link, forgets the bond and advertises again.
            let signals = try await harness.pairUntilTheCuffEndsTheLink()
            try await harness.events.waitFor("\(EmulatorHarness.cuffName) forgot its side of the bond")
            try await harness.events.waitFor("\(EmulatorHarness.cuffName) advertising")
            let refused = await #expect(throws: DBusError.self) { try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Connect") }
            #expect(refused?.name.rawValue == "org.bluez.Error.AuthenticationFailed")
            let linked = signals.all.filter { $0.changes(EmulatorHarness.device)?["Connected"] == .boolean(true) }
            #expect(linked.isEmpty, "no link came up over the forgotten bond")

            _ = try await harness.call(EmulatorHarness.adapter, "org.bluez.Adapter1", "RemoveDevice", [.objectPath(EmulatorHarness.device)])
            _ = try await harness.call(EmulatorHarness.adapter, "org.bluez.Adapter1", "StopDiscovery")
            try await harness.discover()
            _ = try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Pair")
            _ = try await signals.next { $0.changes(EmulatorHarness.device)?["Connected"] == .boolean(true) }
            _ = try await signals.next { $0.changes(EmulatorHarness.device)?["Paired"] == .boolean(true) }
        }
    }
}

extension EmulatorHarness {
    /// Discovers and pairs the cuff, enables its 0x2A35 indications (which starts its timeline) and returns once the link
    /// is down; the signals recorded from the enabling on.
    func pairUntilTheCuffEndsTheLink() async throws -> StreamRecorder<DBusMessage> {
        try await discover()
        _ = try await call(Self.device, "org.bluez.Device1", "Pair")
        let measurement = try await characteristicPath("2a35")
        let signals = try await recordSignals()
        _ = try await call(measurement, "org.bluez.GattCharacteristic1", "StartNotify")
        _ = try await signals.next { $0.changes(Self.device)?["Connected"] == .boolean(false) }
        return signals
    }
}
