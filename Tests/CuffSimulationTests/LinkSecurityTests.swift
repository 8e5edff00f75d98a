import DBus
import DBusTestSupport
import Foundation
import Testing

/// A cuff that pairs protects its health characteristics on an unpaired link; bluetoothd raises the
/// link's security by itself through the default agent (docs/reference/BLUEZ-DBUS.md §5, "Automatic security elevation").
@Suite("cuff-sim: link security")
struct LinkSecurityTests {
    static let agent = PairingTests.agentPath

    /// A connected, unpaired cuff.
    static func connected(_ pairing: String) async throws -> EmulatorHarness {
        let harness = try await EmulatorHarness(ScenarioText.oneCuff(pairing: pairing))
        try await harness.discover()
        try await harness.connectAndResolve()
        return harness
    }

    static func paired(_ harness: EmulatorHarness) async throws -> Bool {
        try await harness.property(EmulatorHarness.device, "org.bluez.Device1", "Paired") == .boolean(true)
    }

    @Test("Just Works with no agent at all: the first protected read pairs the link (NoInputNoOutput) and succeeds")
    func justWorksWithoutAgent() async throws {
        try await withTeardown { teardown in
            let harness = try await Self.connected("justWorks")
            teardown.add { await harness.stop() }
            #expect(try await harness.read(try await harness.characteristicPath("2a29")) == Array("cuffd project".utf8))
            #expect(try await Self.paired(harness) == false, "Device Information is readable without pairing")
            let signals = try await harness.recordSignals()
            #expect(try await harness.read(try await harness.characteristicPath("2a49")) == [0x27, 0x00])
            _ = try await signals.next { $0.changes(EmulatorHarness.device)?["Paired"] == .boolean(true) }
            #expect(harness.events.all.contains { $0.hasSuffix("paired by security elevation") })
            #expect(try await harness.property(EmulatorHarness.device, "org.bluez.Device1", "Trusted") == .boolean(false))
        }
    }

    @Test("A passkey cuff: the default agent is asked for the key; the right one pairs and the read goes through")
    func passkeyThroughTheDefaultAgent() async throws {
        try await withTeardown { teardown in
            let harness = try await Self.connected("passkey:123456")
            teardown.add { await harness.stop() }
            let requests = try await PairingTests.exportAgent(on: harness, passkey: 123_456, capability: "KeyboardDisplay")
            _ = try await harness.call("/org/bluez", "org.bluez.AgentManager1", "RequestDefaultAgent", [.objectPath(Self.agent)])
            #expect(try await harness.read(try await harness.characteristicPath("2a49")) == [0x27, 0x00])
            #expect(requests.all == ["RequestPasskey \(EmulatorHarness.device)"])
            #expect(try await Self.paired(harness))
            // Paired now: no second request.
            _ = try await harness.read(try await harness.characteristicPath("2a49"))
            #expect(requests.all.count == 1)
        }
    }

    @Test("Elevation that fails — wrong key, refusing agent, an agent that is not the default — is NotPermitted: Not paired", arguments: [
        (UInt32?.some(654_321), true, ["RequestPasskey"]),
        (UInt32?.none, true, ["RequestPasskey"]),
        (UInt32?.some(123_456), false, []),
    ])
    func failedElevation(passkey: UInt32?, isDefault: Bool, asked: [String]) async throws {
        try await withTeardown { teardown in
            let harness = try await Self.connected("passkey:123456")
            teardown.add { await harness.stop() }
            let requests = try await PairingTests.exportAgent(on: harness, passkey: passkey, capability: "KeyboardDisplay")
            if isDefault {
                _ = try await harness.call("/org/bluez", "org.bluez.AgentManager1", "RequestDefaultAgent", [.objectPath(Self.agent)])
            }
            let feature = try await harness.characteristicPath("2a49")
            let error = await #expect(throws: DBusError.self) { try await harness.read(feature) }
            #expect(error?.name.rawValue == "org.bluez.Error.NotPermitted")
            #expect(error?.message == "Not paired")
            #expect(requests.all.map { $0.components(separatedBy: " ")[0] } == asked)
            #expect(try await Self.paired(harness) == false)
        }
    }

    @Test("StartNotify whose CCCD write cannot be secured fails with the write's error and keeps no session")
    func startNotifyNeedsSecurity() async throws {
        try await withTeardown { teardown in
            let harness = try await Self.connected("passkey:123456")
            teardown.add { await harness.stop() }
            let measurement = try await harness.characteristicPath("2a35")
            let error = await #expect(throws: DBusError.self) { try await harness.startNotify(measurement) }
            #expect(error?.name.rawValue == "org.bluez.Error.NotPermitted")
            #expect(error?.message == "Not paired")
            #expect(try await harness.property(measurement, "org.bluez.GattCharacteristic1", "Notifying") == .boolean(false))
            let stop = await #expect(throws: DBusError.self) {
                try await harness.call(measurement, "org.bluez.GattCharacteristic1", "StopNotify")
            }
            #expect(stop?.message == "No notify session started")
        }
    }

    @Test("Writes are protected too; a cuff without pairing needs none")
    func writesAndOpenCuffs() async throws {
        try await withTeardown { teardown in
            let protected = try await EmulatorHarness(ScenarioText.oneCuff(pairing: "passkey:123456", extra: #""vendor": "qardioArm""#))
            teardown.add { await protected.stop() }
            try await protected.discover()
            try await protected.connectAndResolve()
            let control = try await protected.characteristicPath("583cb5b3-875d-40ed-9098-c39eb0c1983d")
            let error = await #expect(throws: DBusError.self) { try await protected.write([0xF1, 0x01], to: control) }
            #expect(error?.message == "Not paired")

            // "Reversing the QardioArm": the real one takes its start command over an unencrypted link.
            let open = try await EmulatorHarness(ScenarioText.oneCuff(pairing: "none", extra: #""vendor": "qardioArm""#))
            teardown.add { await open.stop() }
            try await open.discover()
            try await open.connectAndResolve()
            try await open.write([0xF1, 0x01], to: try await open.characteristicPath("583cb5b3-875d-40ed-9098-c39eb0c1983d"))
            #expect(try await open.property(EmulatorHarness.device, "org.bluez.Device1", "Paired") == .boolean(false))
        }
    }

    @Test("An access during Pair waits for that pairing instead of starting another, and succeeds with it")
    func accessDuringPair() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(pairing: "passkey:123456"))
            teardown.add { await harness.stop() }
            let typed = Gate()
            teardown.add { typed.open() }
            let requests = try await PairingTests.exportSlowAgent(on: harness, typed: typed)
            _ = try await harness.call("/org/bluez", "org.bluez.AgentManager1", "RequestDefaultAgent", [.objectPath(Self.agent)])
            try await harness.discover()
            let signals = try await harness.recordSignals()
            let pairing = Task { try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Pair") }
            _ = try await signals.next { $0.changes(EmulatorHarness.device)?["ServicesResolved"] == .boolean(true) }
            try await requests.waitFor("RequestPasskey")
            let feature = try await harness.characteristicPath("2a49")
            let read = Task { try await harness.read(feature) }
            // The read meets the unpaired link while the user has not typed yet; only then does the user type.
            try await harness.events.waitFor("0x2A49 refused on an unpaired link")
            typed.open()
            #expect(try await read.value == [0x27, 0x00])
            _ = try await pairing.value
            #expect(requests.all == ["RequestPasskey"])
            #expect(!harness.events.all.contains { $0.hasSuffix("paired by security elevation") })
        }
    }
}
