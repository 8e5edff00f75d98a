import DBusTestSupport
import BlueZ
import DBus
import Testing

@Suite("BlueZ client: connecting")
struct ConnectingTests {
    @Test("Two concurrent connects to one cuff make one Connect call; both callers see the link up")
    func connectsAreSerialized() async throws {
        try await withTeardown { teardown in
            let harness = try await BluezHarness(oneCuff(#", "bonded": true"#))
            teardown.add { await harness.stop() }
            async let first: Void = harness.client.connect(BluezHarness.cuff)
            async let second: Void = harness.client.connect(BluezHarness.cuff)
            _ = try await (first, second)
            #expect(await harness.client.device(BluezHarness.cuff)?.connected == true)
            #expect(harness.log.count("BP-1 (C4:F3:12:53:F2:C9) connected") == 1)
        }
    }

    @Test("A cuff that does not advertise fails with le-connection-abort-by-local, typed and retried")
    func abortByLocalIsTypedAndRetried() async throws {
        try await withTeardown { teardown in
            // The cuff connects once (to be found), drops the link and stays silent.
            let harness = try await BluezHarness(oneCuff(#", "bonded": true, "timeline": [{"after": 0.1, "disconnect": true}]"#))
            teardown.add { await harness.stop() }
            await harness.client.keepNotifying(BluezHarness.cuff, uuids: [BluezHarness.bloodPressureMeasurement])
            try await harness.client.connect(BluezHarness.cuff)
            _ = try await harness.events.next { if case .deviceChanged(let d, let c) = $0 { c.contains("Connected") && !d.connected } else { false } }

            let clock = ContinuousClock()
            let started = clock.now
            let error = await #expect(throws: BluezError.self) { try await harness.client.connect(BluezHarness.cuff, attempts: 2) }
            #expect(error?.kind == .failed(.abortByLocal))
            #expect(error?.isRetryable == true)
            // Two attempts of cuff-sim's 2 s advertising wait each.
            #expect(clock.now - started >= .seconds(4))
        }
    }

    @Test("Waiting for ServicesResolved fails at once when the link drops first")
    func servicesResolvedRacesDisconnect() async throws {
        try await withTeardown { teardown in
            let harness = try await BluezHarness(oneCuff(#", "bonded": true"#))
            teardown.add { await harness.stop() }
            try await harness.client.connect(BluezHarness.cuff)
            try await harness.client.disconnect(BluezHarness.cuff)
            let error = await #expect(throws: BluezError.self) {
                try await harness.client.waitForServicesResolved(BluezHarness.cuff, timeout: testDeadline)
            }
            #expect(error?.kind == .notConnected)
        }
    }
}
