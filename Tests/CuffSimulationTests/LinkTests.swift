import DBus
import Testing

@Suite("cuff-sim: discovery and links")
struct LinkTests {
    @Test("A cuff appears on discovery; ServicesResolved follows Connected, after the GATT objects")
    func connectOrder() async throws {
        let harness = try await EmulatorHarness(ScenarioText.oneCuff())
        defer { Task { await harness.stop() } }
        #expect(try await harness.managedObjects()[EmulatorHarness.device] == nil, "undiscovered cuffs are not on the bus")
        try await harness.discover()
        let signals = try await harness.recordSignals()
        _ = try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Connect")
        _ = try await signals.next { $0.changes(EmulatorHarness.device)?["ServicesResolved"] == .boolean(true) }

        let order = signals.all.compactMap { message -> String? in
            if let changes = message.changes(EmulatorHarness.device) {
                return changes.keys.contains("Connected") ? "Connected" : changes.keys.contains("ServicesResolved") ? "ServicesResolved" : nil
            }
            return message.member == "InterfacesAdded" ? "InterfacesAdded" : nil
        }
        #expect(order.first == "Connected")
        #expect(order.last == "ServicesResolved")
        #expect(order.filter { $0 == "InterfacesAdded" }.count >= 2 + 3 + 2, "services, characteristics, descriptors")
        let measurement = try await harness.characteristicPath("2a35")
        #expect(measurement.text.hasPrefix(EmulatorHarness.device.text + "/service"))
        #expect(try await harness.property(measurement, "org.bluez.GattCharacteristic1", "Flags") == .array(.string, [.string("indicate")]))
        #expect(try await harness.property(EmulatorHarness.device, "org.bluez.Device1", "Connected") == .boolean(true))
    }

    @Test("A temporary device vanishes when discovery stops and TemporaryTimeout passes; a trusted one stays")
    func temporaryDevices() async throws {
        let harness = try await EmulatorHarness(ScenarioText.oneCuff(temporaryTimeout: 0.3))
        defer { Task { await harness.stop() } }
        try await harness.discover()
        let signals = try await harness.recordSignals()
        _ = try await harness.call(EmulatorHarness.adapter, "org.bluez.Adapter1", "StopDiscovery")
        let removed = try await signals.next { $0.member == "InterfacesRemoved" && $0.arguments.first == .objectPath(EmulatorHarness.device) }
        #expect(try removed.argument(1, as: [String].self) == ["org.bluez.Device1"])
        await #expect(throws: DBusError.self) { try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Connect") }

        try await harness.discover()
        _ = try await harness.call(EmulatorHarness.device, StandardInterface.properties, "Set", [
            .string("org.bluez.Device1"), .string("Trusted"), .variant(.boolean(true)),
        ])
        _ = try await harness.call(EmulatorHarness.adapter, "org.bluez.Adapter1", "StopDiscovery")
        try await Task.sleep(for: .milliseconds(600))
        #expect(try await harness.managedObjects()[EmulatorHarness.device] != nil)
    }

    @Test("Connect to a cuff that stopped advertising fails the way BlueZ reports it")
    func connectWithoutAdvertising() async throws {
        let harness = try await EmulatorHarness(ScenarioText.oneCuff(timeline: #"[{"after": 0.05, "disconnect": true}]"#))
        defer { Task { await harness.stop() } }
        try await harness.discover()
        try await harness.connectAndResolve()
        let signals = try await harness.recordSignals()
        let measurement = try await harness.characteristicPath("2a35")
        _ = try await harness.call(measurement, "org.bluez.GattCharacteristic1", "StartNotify")
        _ = try await signals.next { $0.changes(EmulatorHarness.device)?["Connected"] == .boolean(false) }
        let error = await #expect(throws: DBusError.self) {
            try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Connect")
        }
        #expect(error?.name.rawValue == "org.bluez.Error.Failed")
        #expect(error?.message == "le-connection-abort-by-local")
        let second = await #expect(throws: DBusError.self) {
            try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Disconnect")
        }
        #expect(second?.name.rawValue == "org.bluez.Error.NotConnected")
    }
}
