import BlueZ
import DBus
import DBusTestSupport
import Testing

@Suite("BlueZ client: auto-connect, notify sessions, bluetoothd restarts")
struct RecoveryTests {
    @Test("A bonded, trusted cuff that wakes is connected by bluetoothd through our GattProfile1, and its values flow again")
    func autoConnectAfterWake() async throws {
        try await withTeardown { teardown in
            let harness = try await BluezHarness(oneCuff(#"""
                , "bonded": true, "storedRecords": ["167C0056006100E807060F11111B33000000"],
                "timeline": [{"after": 0.2, "disconnect": true}, {"after": 1.0, "advertise": true},
                             {"after": 1.5, "indicate": "2A35", "hex": "1E 7A 00 50 00 5D 00 EA 07 0B 16 0A 1E 00 48 00 01 00 00"}]
                """#))
            teardown.add { await harness.stop() }
            // Registering the application already lets bluetoothd connect the advertising bonded cuff.
            #expect(harness.log.count("application /org/cuffd/bluez/application registered") == 1)
            #expect(harness.log.count("auto-connecting (GattProfile1)") == 1)
            await harness.client.keepNotifying(BluezHarness.cuff, uuids: [BluezHarness.bloodPressureMeasurement])
            #expect(try await harness.nextValue(BluezHarness.bloodPressureMeasurement).first == 0x16)
            // The cuff drops the link, advertises, and bluetoothd reconnects it: no Connect from us.
            #expect(try await harness.nextValue(BluezHarness.bloodPressureMeasurement).first == 0x16)
            #expect(harness.log.count("auto-connecting (GattProfile1)") == 2)
            #expect(try await harness.nextValue(BluezHarness.bloodPressureMeasurement).first == 0x1E)
        }
    }

    @Test("After bluetoothd restarts: the mirror is rebuilt, agent and application registered again, notifications re-enabled")
    func bluetoothdRestart() async throws {
        try await withTeardown { teardown in
            let harness = try await BluezHarness(oneCuff(#"""
                , "bonded": true,
                "timeline": [{"after": 0.3, "restartBluez": true},
                             {"after": 2.5, "indicate": "2A35", "hex": "1E 7A 00 50 00 5D 00 EA 07 0B 16 0A 1E 00 48 00 01 00 00"}]
                """#))
            teardown.add { await harness.stop() }
            await harness.client.keepNotifying(BluezHarness.cuff, uuids: [BluezHarness.bloodPressureMeasurement])
            try await harness.client.connect(BluezHarness.cuff)
            _ = try await harness.events.next { if case .availabilityChanged(false) = $0 { true } else { false } }
            #expect(await harness.client.devices.isEmpty)
            _ = try await harness.events.next { if case .availabilityChanged(true) = $0 { true } else { false } }
            #expect(await harness.client.device(BluezHarness.cuff) != nil)
            // The restarted bluetoothd auto-connects the bonded cuff for our re-registered application, and our
            // re-enabled indication session carries the reading.
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
            let started = harness.events.all.compactMap { if case .notifying(BluezHarness.cuff, let uuid) = $0 { uuid } else { nil } }
            #expect(started.contains(BluezHarness.bloodPressureMeasurement))
            try await until { await harness.client.isNotifying(BluezHarness.cuff) }
            await harness.client.stopNotifying(BluezHarness.cuff)
            #expect(await harness.client.isNotifying(BluezHarness.cuff) == false)
        }
    }
}

/// Polls `condition` until it holds, for at most `timeout`.
func until(_ timeout: Duration = .seconds(5), _ condition: () async -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while await !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("condition not met within \(timeout)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}
