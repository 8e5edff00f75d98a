import DBusTestSupport
import BlueZ
import DBus
import Testing

@Suite("BlueZ client: the mirror")
struct MirrorTests {
    @Test("At start the mirror holds the adapter and the bonded cuffs; discovery adds an advertising cuff")
    func snapshotThenDiscovery() async throws {
        try await withTeardown { teardown in
            let harness = try await BluezHarness("""
                {"adapter": {"address": "00:1A:7D:DA:71:13"},
                 "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "BP-1", "services": ["1810"], "bonded": true},
                           {"address": "C4:F3:12:53:F2:CA", "name": "BP-2", "services": ["1810", "180D"]}]}
                """)
            teardown.add { await harness.stop() }
            #expect(await harness.client.isAvailable)
            #expect(await harness.client.adapters.map(\.address) == [BluezHarness.adapter])
            let bonded = try #require(await harness.client.device(BluezHarness.cuff))
            #expect(bonded.paired && bonded.trusted && !bonded.connected && bonded.name == "BP-1")
            let second = DeviceID(adapter: BluezHarness.adapter, address: BluetoothAddress("C4:F3:12:53:F2:CA")!)
            #expect(await harness.client.device(second) == nil)

            try await harness.discover(second)
            let found = try #require(await harness.client.device(second))
            #expect(found.isTemporary)
            #expect(found.uuids.contains("0000180d-0000-1000-8000-00805f9b34fb"))
            #expect(harness.log.count("discovery started by \(harness.connection.uniqueName)") == 1)
            #expect(await harness.client.adapters.first?.discovering == true)
            await harness.client.stopDiscovery(on: BluezHarness.adapter)
            #expect(harness.log.count("discovery stopped by \(harness.connection.uniqueName)") == 1)
        }
    }

    @Test("Properties, services and values follow the signals in order; a characteristic is found by UUID, not path")
    func followsSignals() async throws {
        try await withTeardown { teardown in
            let harness = try await BluezHarness(oneCuff(#", "bonded": true, "storedRecords": ["167C0056006100E807060F11111B33000000"]"#))
            teardown.add { await harness.stop() }
            await harness.client.keepNotifying(BluezHarness.cuff, uuids: [BluezHarness.bloodPressureMeasurement])
            try await harness.client.connect(BluezHarness.cuff)
            let characteristics = try await harness.client.waitForServicesResolved(BluezHarness.cuff, timeout: testDeadline)
            #expect(characteristics.contains { $0.uuid == BluezHarness.bloodPressureMeasurement && $0.flags == ["indicate"] })
            let stored = try await harness.nextValue(BluezHarness.bloodPressureMeasurement)
            #expect(stored.first == 0x16 && stored.count == 18)
            let device = try #require(await harness.client.device(BluezHarness.cuff))
            #expect(device.connected && device.servicesResolved)

            // The order a client must see: Connected, then the services, then ServicesResolved; values may come
            // before ServicesResolved, since notifications are enabled as soon as a characteristic is exported.
            let kinds = harness.events.all.compactMap { event -> String? in
                switch event {
                case .deviceChanged(let device, let changed) where changed.contains("Connected") && device.connected: "connected"
                case .deviceChanged(let device, let changed) where changed.contains("ServicesResolved") && device.servicesResolved: "resolved"
                case .servicesChanged: "services"
                case .notifying: "notifying"
                case .value: "value"
                default: nil
                }
            }
            let firstOf = { (kind: String) in kinds.firstIndex(of: kind) ?? .max }
            #expect(firstOf("connected") < firstOf("services"))
            #expect(firstOf("services") < firstOf("resolved"))
            #expect(firstOf("services") < firstOf("value"))
        }
    }
}
