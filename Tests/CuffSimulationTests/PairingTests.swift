import DBusTestSupport
import DBus
import Foundation
import Testing

@Suite("cuff-sim: pairing through the agent")
struct PairingTests {
    static let agentPath: DBusObjectPath = "/org/cuffd/test/agent"

    /// An Agent1 on the client's connection that answers with `passkey` (or refuses) and notes
    /// each request, so a test can tell the agent was asked before Pair replied.
    static func exportAgent(on harness: EmulatorHarness, passkey: UInt32?, capability: String) async throws -> LineLog {
        let requests = LineLog()
        await harness.client.export([DBusInterface("org.bluez.Agent1", methods: [
            .init("RequestPasskey", inputs: [.init("device", .objectPath)], outputs: [.init("passkey", .uint32)]) { call in
                requests.append("RequestPasskey \(try call.argument(0, as: DBusObjectPath.self))")
                guard let passkey else { throw DBusError("org.bluez.Error.Rejected", "the user said no") }
                return [.uint32(passkey)]
            },
            .init("RequestAuthorization", inputs: [.init("device", .objectPath)]) { call in
                requests.append("RequestAuthorization \(try call.argument(0, as: DBusObjectPath.self))")
                guard passkey != nil else { throw DBusError("org.bluez.Error.Rejected", "the user said no") }
                return []
            },
            .init("Cancel") { _ in requests.append("Cancel"); return [] },
            .init("Release") { _ in [] },
        ])], at: agentPath)
        _ = try await harness.call("/org/bluez", "org.bluez.AgentManager1", "RegisterAgent", [.objectPath(agentPath), .string(capability)])
        return requests
    }

    /// A KeyboardOnly Agent1 whose user types 123456 once `typed` opens, and that notes each request and Cancel.
    static func exportSlowAgent(on harness: EmulatorHarness, typed: Gate) async throws -> LineLog {
        let requests = LineLog()
        await harness.client.export([DBusInterface("org.bluez.Agent1", methods: [
            .init("RequestPasskey", inputs: [.init("device", .objectPath)], outputs: [.init("passkey", .uint32)]) { _ in
                requests.append("RequestPasskey")
                try await typed.wait()
                return [.uint32(123_456)]
            },
            .init("Cancel") { _ in requests.append("Cancel"); return [] },
        ])], at: agentPath)
        _ = try await harness.call("/org/bluez", "org.bluez.AgentManager1", "RegisterAgent", [.objectPath(agentPath), .string("KeyboardOnly")])
        return requests
    }

    @Test("A passkey cuff pairs when the agent types the key it displays; the agent is asked before Pair replies")
    func passkeyPairing() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(pairing: "passkey:123456"))
            teardown.add { await harness.stop() }
            let requests = try await Self.exportAgent(on: harness, passkey: 123_456, capability: "KeyboardDisplay")
            try await harness.discover()
            _ = try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Pair")
            #expect(requests.all == ["RequestPasskey \(EmulatorHarness.device)"])
            #expect(try await harness.property(EmulatorHarness.device, "org.bluez.Device1", "Paired") == .boolean(true))
            #expect(try await harness.property(EmulatorHarness.device, "org.bluez.Device1", "Connected") == .boolean(true), "Pair connects first")
            let again = await #expect(throws: DBusError.self) { try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Pair") }
            #expect(again?.name.rawValue == "org.bluez.Error.AlreadyExists")
        }
    }

    @Test("A wrong passkey, a missing agent and a refusing agent each fail Pair with BlueZ's error", arguments: [
        (UInt32?.some(654_321), "KeyboardDisplay", "passkey:123456", "org.bluez.Error.AuthenticationFailed"),
        (UInt32?.some(123_456), "NoInputNoOutput", "passkey:123456", "org.bluez.Error.AuthenticationFailed"),
        (UInt32?.none, "KeyboardDisplay", "passkey:123456", "org.bluez.Error.AuthenticationRejected"),
    ])
    func failedPairing(passkey: UInt32?, capability: String, pairing: String, expected: String) async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(pairing: pairing))
            teardown.add { await harness.stop() }
            _ = try await Self.exportAgent(on: harness, passkey: passkey, capability: capability)
            try await harness.discover()
            let error = await #expect(throws: DBusError.self) { try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Pair") }
            #expect(error?.name.rawValue == expected)
            #expect(try await harness.property(EmulatorHarness.device, "org.bluez.Device1", "Paired") == .boolean(false))
        }
    }

    @Test("Just Works asks no agent, not even a KeyboardDisplay one that would refuse (as BlueZ 5.66 does)")
    func justWorksAsksNobody() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(pairing: "justWorks"))
            teardown.add { await harness.stop() }
            let requests = try await Self.exportAgent(on: harness, passkey: nil, capability: "KeyboardDisplay")
            _ = try await harness.call("/org/bluez", "org.bluez.AgentManager1", "RequestDefaultAgent", [.objectPath(Self.agentPath)])
            try await harness.discover()
            _ = try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Pair")
            #expect(requests.all.isEmpty)
            #expect(try await harness.property(EmulatorHarness.device, "org.bluez.Device1", "Paired") == .boolean(true))
        }
    }

    @Test("Pairing without any agent: Just Works succeeds, a passkey cuff fails")
    func noAgent() async throws {
        try await withTeardown { teardown in
            let justWorks = try await EmulatorHarness(ScenarioText.oneCuff(pairing: "justWorks"))
            try await justWorks.discover()
            _ = try await justWorks.call(EmulatorHarness.device, "org.bluez.Device1", "Pair")
            #expect(try await justWorks.property(EmulatorHarness.device, "org.bluez.Device1", "Bonded") == .boolean(true))
            await justWorks.stop()

            let passkey = try await EmulatorHarness(ScenarioText.oneCuff(pairing: "passkey:000042"))
            teardown.add { await passkey.stop() }
            try await passkey.discover()
            let error = await #expect(throws: DBusError.self) { try await passkey.call(EmulatorHarness.device, "org.bluez.Device1", "Pair") }
            #expect(error?.name.rawValue == "org.bluez.Error.AuthenticationFailed")
        }
    }

    @Test("CancelPairing fails a Pair that waits for the agent, and tells that agent")
    func cancelPairing() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(pairing: "passkey:123456"))
            teardown.add { await harness.stop() }
            let typed = Gate()  // the user types only after the test
            teardown.add { typed.open() }
            let requests = try await Self.exportSlowAgent(on: harness, typed: typed)
            try await harness.discover()
            let pairing = Task { try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Pair") }
            try await requests.waitFor("RequestPasskey")
            _ = try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "CancelPairing")
            let error = await #expect(throws: DBusError.self) { try await pairing.value }
            #expect(error?.name.rawValue == "org.bluez.Error.AuthenticationCanceled")
            try await requests.waitFor("Cancel")
            let nothing = await #expect(throws: DBusError.self) { try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "CancelPairing") }
            #expect(nothing?.name.rawValue == "org.bluez.Error.DoesNotExist")
        }
    }

    @Test("RemoveDevice disconnects, forgets the bond and removes the object; a second call is DoesNotExist")
    func removeDevice() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(pairing: "justWorks"))
            teardown.add { await harness.stop() }
            try await harness.discover()
            _ = try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Pair")
            let signals = try await harness.recordSignals()
            _ = try await harness.call(EmulatorHarness.adapter, "org.bluez.Adapter1", "RemoveDevice", [.objectPath(EmulatorHarness.device)])
            _ = try await signals.next { $0.changes(EmulatorHarness.device)?["Connected"] == .boolean(false) }
            _ = try await signals.next { $0.member == "InterfacesRemoved" && $0.arguments.first == .objectPath(EmulatorHarness.device) }
            let again = await #expect(throws: DBusError.self) {
                try await harness.call(EmulatorHarness.adapter, "org.bluez.Adapter1", "RemoveDevice", [.objectPath(EmulatorHarness.device)])
            }
            #expect(again?.name.rawValue == "org.bluez.Error.DoesNotExist")
        }
    }
}
