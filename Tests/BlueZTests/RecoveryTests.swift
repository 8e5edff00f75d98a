import BlueZ
import CuffSimulation
import DBus
import DBusTestSupport
import Testing

@Suite("BlueZ client: auto-connect, notify sessions, bluetoothd restarts")
struct RecoveryTests {
    /// The reading the cuff measures once it is back.
    static let reading = TimelineStep.Action.indicate(
        .bloodPressureMeasurement, HexValue(bytes: [0x1E, 0x7A, 0x00, 0x50, 0x00, 0x5D, 0x00, 0xEA, 0x07, 0x0B, 0x16, 0x0A, 0x1E, 0x00, 0x48, 0x00, 0x01, 0x00, 0x00]))

    @Test("A bonded, trusted cuff that wakes is connected by bluetoothd through our GattProfile1, and its values flow again")
    func autoConnectAfterWake() async throws {
        try await withTeardown { teardown in
            let harness = try await BluezHarness(oneCuff(#", "bonded": true, "storedRecords": ["167C0056006100E807060F11111B33000000"]"#))
            teardown.add { await harness.stop() }
            // Registering the application already lets bluetoothd connect the advertising bonded cuff.
            #expect(harness.log.count("application /org/cuffd/bluez/application registered") == 1)
            #expect(harness.log.count("auto-connecting (GattProfile1)") == 1)
            await harness.client.keepNotifying(BluezHarness.cuff, uuids: [BluezHarness.bloodPressureMeasurement])
            #expect(try await harness.nextValue(BluezHarness.bloodPressureMeasurement).first == 0x16)
            // The cuff drops the link, and once we have seen it go, advertises; bluetoothd reconnects it: no Connect
            // from us. Each step comes when the state it needs is there.
            await harness.emulator.perform(.disconnect, cuffAt: BluezHarness.cuff.address)
            _ = try await harness.events.next { if case .deviceChanged(let device, let changed) = $0 { changed.contains("Connected") && !device.connected } else { false } }
            await harness.emulator.perform(.advertise, cuffAt: BluezHarness.cuff.address)
            #expect(try await harness.nextValue(BluezHarness.bloodPressureMeasurement).first == 0x16)
            #expect(harness.log.count("auto-connecting (GattProfile1)") == 2)
            await harness.emulator.perform(Self.reading, cuffAt: BluezHarness.cuff.address)
            #expect(try await harness.nextValue(BluezHarness.bloodPressureMeasurement).first == 0x1E)
        }
    }

    @Test("After bluetoothd restarts: the mirror is rebuilt, agent and application registered again, notifications re-enabled")
    func bluetoothdRestart() async throws {
        try await withTeardown { teardown in
            let harness = try await BluezHarness(oneCuff(#", "bonded": true"#))
            teardown.add { await harness.stop() }
            await harness.client.keepNotifying(BluezHarness.cuff, uuids: [BluezHarness.bloodPressureMeasurement])
            try await harness.client.connect(BluezHarness.cuff)
            _ = try await harness.events.first { if case .notifying(BluezHarness.cuff, BluezHarness.bloodPressureMeasurement) = $0 { true } else { false } }
            await harness.emulator.perform(.restartBluez, cuffAt: BluezHarness.cuff.address)
            _ = try await harness.events.next { if case .availabilityChanged(false) = $0 { true } else { false } }
            _ = try await harness.events.next { if case .availabilityChanged(true) = $0 { true } else { false } }
            // The mirror is loaded anew from the restarted bluetoothd (not looked at while it was gone: it may be back
            // by the time this test runs again), and the cuff announced from it.
            _ = try await harness.events.next { if case .deviceChanged(let device, _) = $0 { device.id == BluezHarness.cuff } else { false } }
            #expect(await harness.client.device(BluezHarness.cuff) != nil)
            // The restarted bluetoothd auto-connects the bonded cuff for our re-registered application, and we enable
            // indications again; the session then carries the reading the cuff takes.
            _ = try await harness.events.next { if case .notifying(BluezHarness.cuff, BluezHarness.bloodPressureMeasurement) = $0 { true } else { false } }
            await harness.emulator.perform(Self.reading, cuffAt: BluezHarness.cuff.address)
            #expect(try await harness.nextValue(BluezHarness.bloodPressureMeasurement).first == 0x1E)
            #expect(harness.log.count("agent /org/cuffd/bluez/agent registered") == 2)
            #expect(harness.log.count("application /org/cuffd/bluez/application registered") == 2)
        }
    }

    @Test("keepNotifying before the cuff is connected enables indications as soon as its services appear")
    func intentBeforeConnection() async throws {
        try await withTeardown { teardown in
            let harness = try await BluezHarness(oneCuff(#", "bonded": true, "storedRecords": ["167C0056006100E807060F11111B33000000"]"#))
            teardown.add { await harness.stop() }
            await harness.client.keepNotifying(BluezHarness.cuff, uuids: [BluezHarness.bloodPressureMeasurement, BluezHarness.intermediateCuffPressure])
            #expect(await harness.client.isNotifying(BluezHarness.cuff) == false)
            try await harness.client.connect(BluezHarness.cuff)
            #expect(try await harness.nextValue(BluezHarness.bloodPressureMeasurement).first == 0x16)
            // Each session's start is an event of its own, in no fixed place beside the values.
            for uuid in [BluezHarness.bloodPressureMeasurement, BluezHarness.intermediateCuffPressure] {
                _ = try await harness.events.first { if case .notifying(BluezHarness.cuff, uuid) = $0 { true } else { false } }
            }
            #expect(await harness.client.isNotifying(BluezHarness.cuff))
            await harness.client.stopNotifying(BluezHarness.cuff)
            #expect(await harness.client.isNotifying(BluezHarness.cuff) == false)
        }
    }
}
