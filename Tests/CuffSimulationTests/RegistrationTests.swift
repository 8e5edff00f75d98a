import DBusTestSupport
import DBus
import Testing

@Suite("cuff-sim: applications, auto-connect and bluetoothd restarts")
struct RegistrationTests {
    static let application: DBusObjectPath = "/org/cuffd/test/app"

    /// A GattProfile1 application for the Blood Pressure service, as cuffd registers it.
    static func exportApplication(on harness: EmulatorHarness, asked: LineLog) async {
        await harness.client.addObjectManager(at: application)
        await harness.client.export([DBusInterface("org.bluez.GattProfile1", methods: [
            .init("Release") { _ in asked.append("Release"); return [] },
        ], properties: [
            .init("UUIDs", ["00001810-0000-1000-8000-00805f9b34fb"]),
        ])], at: try! application.appending("bp"))
    }

    @Test("RegisterApplication reads the profile before replying; a bonded, trusted cuff then connects by itself")
    func autoConnect() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(bonded: true))
            teardown.add { await harness.stop() }
            #expect(try await harness.property(EmulatorHarness.device, "org.bluez.Device1", "Connected") == .boolean(false))
            await Self.exportApplication(on: harness, asked: LineLog())
            let signals = try await harness.recordSignals()
            _ = try await harness.call(EmulatorHarness.adapter, "org.bluez.GattManager1", "RegisterApplication", [
                .objectPath(Self.application), .dictionary(key: .string, value: .variant, []),
            ])
            _ = try await signals.next { $0.changes(EmulatorHarness.device)?["ServicesResolved"] == .boolean(true) }
            #expect(harness.events.all.contains { $0.contains("profiles: 00001810-0000-1000-8000-00805f9b34fb") })
            let twice = await #expect(throws: DBusError.self) {
                try await harness.call(EmulatorHarness.adapter, "org.bluez.GattManager1", "RegisterApplication", [
                    .objectPath(Self.application), .dictionary(key: .string, value: .variant, []),
                ])
            }
            #expect(twice?.name.rawValue == "org.bluez.Error.AlreadyExists")
        }
    }

    @Test("A restart: org.bluez changes owner, registrations are gone, the bonded cuff is back disconnected")
    func restart() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(bonded: true, timeline: #"[{"after": 0.1, "restartBluez": true}]"#))
            teardown.add { await harness.stop() }
            let owners = StreamRecorder(try await harness.client.nameOwnerChanges(of: "org.bluez"))
            let firstOwner = try await harness.client.nameOwner(of: "org.bluez")
            let agent: DBusObjectPath = "/org/cuffd/test/agent"
            await harness.client.export([DBusInterface("org.bluez.Agent1", methods: [.init("Release") { _ in [] }])], at: agent)
            _ = try await harness.call("/org/bluez", "org.bluez.AgentManager1", "RegisterAgent", [.objectPath(agent), .string("NoInputNoOutput")])
            try await harness.connectAndResolve()
            _ = try await harness.call(try await harness.characteristicPath("2a35"), "org.bluez.GattCharacteristic1", "StartNotify")

            let gone = try await owners.next { _ in true }
            #expect(gone == NameOwnerChange(name: "org.bluez", oldOwner: firstOwner, newOwner: nil))
            let back = try await owners.next { $0.newOwner != nil }
            #expect(back.newOwner != firstOwner)

            let objects = try await harness.managedObjects()
            let device = try #require(objects[EmulatorHarness.device]?["org.bluez.Device1"])
            #expect(try device.property("Connected", as: Bool.self) == false)
            #expect(try device.property("Paired", as: Bool.self) == true)
            let unknown = await #expect(throws: DBusError.self) {
                try await harness.call("/org/bluez", "org.bluez.AgentManager1", "RequestDefaultAgent", [.objectPath(agent)])
            }
            #expect(unknown?.name.rawValue == "org.bluez.Error.DoesNotExist")
        }
    }

    @Test("A client that leaves the bus loses its agent and discovery session")
    func clientLeaves() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff())
            teardown.add { await harness.stop() }
            let other = try DBusConnection.open(.address(harness.bus.address), label: "other", callTimeout: testDeadline)
            _ = try await other.call("org.bluez", "/org/bluez", "org.bluez.AgentManager1", "RegisterAgent", [.objectPath("/a"), .string("NoInputNoOutput")])
            _ = try await other.call("org.bluez", EmulatorHarness.adapter, "org.bluez.Adapter1", "StartDiscovery")
            #expect(try await harness.property(EmulatorHarness.adapter, "org.bluez.Adapter1", "Discovering") == .boolean(true))
            let signals = try await harness.recordSignals()
            other.close()
            _ = try await signals.next { $0.changes(EmulatorHarness.adapter)?["Discovering"] == .boolean(false) }
            #expect(harness.events.all.contains { $0.hasPrefix("agent of :") && $0.hasSuffix("client left the bus") })
        }
    }
}
