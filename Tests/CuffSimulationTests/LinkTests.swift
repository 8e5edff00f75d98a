import DBusTestSupport
import DBus
import Testing

@Suite("cuff-sim: discovery and links")
struct LinkTests {
    @Test("A cuff appears on discovery; on a first link ServicesResolved follows Connected, before the GATT objects")
    func connectOrder() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff())
            teardown.add { await harness.stop() }
            #expect(try await harness.managedObjects()[EmulatorHarness.device] == nil, "undiscovered cuffs are not on the bus")
            try await harness.discover()
            let signals = try await harness.recordSignals()
            try await harness.connectAndResolve()
            try await harness.settle(signals)

            // BlueZ 5.66 discovering a database for the first time (docs/acceptance.md): Connected, then
            // ServicesResolved, then the objects.
            let order = Self.linkOrder(signals)
            #expect(order.first == "Connected")
            #expect(order.dropFirst().first == "ServicesResolved")
            #expect(order.filter { $0 == "InterfacesAdded" }.count >= 2 + 3 + 2, "services, characteristics, descriptors")
            let measurement = try await harness.characteristicPath("2a35")
            #expect(measurement.text.hasPrefix(EmulatorHarness.device.text + "/service"))
            #expect(try await harness.property(measurement, "org.bluez.GattCharacteristic1", "Flags") == .array(.string, [.string("indicate")]))
            #expect(try await harness.property(EmulatorHarness.device, "org.bluez.Device1", "Connected") == .boolean(true))
        }
    }

    @Test("A bonded cuff keeps its GATT objects across a link loss; kept sessions are enabled before ServicesResolved")
    func bondedReconnection() async throws {
        try await withTeardown { teardown in
            let record = ScenarioText.recordA
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(
                bonded: true, storedRecords: [record], timeline: #"[{"after": 0.1, "disconnect": true}, {"after": 0.3, "advertise": true}]"#))
            teardown.add { await harness.stop() }
            try await harness.connectAndResolve()
            let measurement = try await harness.characteristicPath("2a35")
            let signals = try await harness.recordSignals()
            _ = try await harness.call(measurement, "org.bluez.GattCharacteristic1", "StartNotify")
            _ = try await signals.next { $0.changes(EmulatorHarness.device)?["Connected"] == .boolean(false) }
            #expect(try await harness.managedObjects()[measurement] != nil, "the objects stay while the cuff is away")
            try await harness.events.waitFor("\(EmulatorHarness.cuffName) advertising")
            _ = try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Connect")
            _ = try await signals.next { $0.changes(EmulatorHarness.device)?["ServicesResolved"] == .boolean(true) }

            // After the first connection: the drop (one signal), the reconnection, the re-sent stored record,
            // and only then ServicesResolved; no object comes or goes.
            let reconnection = Self.linkOrder(signals).drop { $0 != "Disconnected" }
            #expect(Array(reconnection) == ["Disconnected", "Connected", "Value", "ServicesResolved"])
        }
    }

    /// The link events of a recording: Device1 changes, GATT objects coming and going, values.
    static func linkOrder(_ signals: StreamRecorder<DBusMessage>) -> [String] {
        signals.all.compactMap { message -> String? in
            if let changes = message.changes(EmulatorHarness.device) {
                if changes["Connected"] == .boolean(false) { return changes["ServicesResolved"] == .boolean(false) ? "Disconnected" : "Connected=false alone" }
                return changes.keys.contains("Connected") ? "Connected" : changes.keys.contains("ServicesResolved") ? "ServicesResolved" : nil
            }
            if message.member == "PropertiesChanged", (try? message.argument(1, as: DBusProperties.self))?["Value"] != nil { return "Value" }
            return ["InterfacesAdded", "InterfacesRemoved"].contains(message.member) ? message.member : nil
        }
    }

    @Test("A temporary device vanishes when discovery stops and TemporaryTimeout passes; a trusted one stays")
    func temporaryDevices() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(temporaryTimeout: 0.3))
            teardown.add { await harness.stop() }
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
            // Every removal the emulator scheduled has happened or been called off.
            try await harness.settle()
            #expect(try await harness.managedObjects()[EmulatorHarness.device] != nil)
        }
    }

    @Test("Connect to a cuff that stopped advertising fails the way BlueZ reports it")
    func connectWithoutAdvertising() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(timeline: #"[{"after": 0.05, "disconnect": true}]"#))
            teardown.add { await harness.stop() }
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
}
