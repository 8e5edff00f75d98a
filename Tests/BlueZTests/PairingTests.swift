import DBusTestSupport
import BlueZ
import DBus
import Testing

@Suite("BlueZ client: pairing through cuffd's agent")
struct PairingTests {
    @Test("Just Works with the standing NoInputNoOutput agent asks nobody; Trusted is set after")
    func justWorks() async throws {
        try await withTeardown { teardown in
            let harness = try await BluezHarness(oneCuff(#", "pairing": "justWorks""#))
            teardown.add { await harness.stop() }
            try await harness.discover()
            try await harness.client.pair(BluezHarness.cuff)
            try await harness.client.setTrusted(BluezHarness.cuff, true)
            let device = try #require(await harness.client.device(BluezHarness.cuff))
            #expect(device.paired && device.bonded && device.trusted)
            #expect(harness.delegate.asked.isEmpty)
            #expect(harness.log.count("(NoInputNoOutput)") == 1)
            #expect(harness.log.count("is the default agent") == 1)
        }
    }

    @Test("A passkey cuff: the agent, raised to KeyboardDisplay, relays the delegate's key")
    func passkey() async throws {
        try await withTeardown { teardown in
            let harness = try await BluezHarness(oneCuff(#", "pairing": "passkey:123456""#), delegate: RecordingPairingDelegate(passkey: 123_456))
            teardown.add { await harness.stop() }
            try await harness.discover()
            await harness.client.setAgentCapability(.keyboardDisplay)
            try await harness.client.pair(BluezHarness.cuff)
            #expect(harness.delegate.asked == ["RequestPasskey C4:F3:12:53:F2:C9"])
            #expect(await harness.client.device(BluezHarness.cuff)?.paired == true)
        }
    }

    @Test("A wrong passkey, and a NoInputNoOutput agent facing a passkey cuff, fail as AuthenticationFailed")
    func passkeyFailures() async throws {
        let wrong = try await BluezHarness(oneCuff(#", "pairing": "passkey:123456""#), delegate: RecordingPairingDelegate(passkey: 654_321))
        try await wrong.discover()
        await wrong.client.setAgentCapability(.keyboardDisplay)
        let refused = await #expect(throws: BluezError.self) { try await wrong.client.pair(BluezHarness.cuff) }
        #expect(refused?.kind == .authenticationFailed)
        await wrong.stop()

        let mute = try await BluezHarness(oneCuff(#", "pairing": "passkey:123456""#), delegate: RecordingPairingDelegate(passkey: 123_456))
        try await mute.discover()
        let unable = await #expect(throws: BluezError.self) { try await mute.client.pair(BluezHarness.cuff) }
        #expect(unable?.kind == .authenticationFailed)
        #expect(mute.delegate.asked.isEmpty)
        await mute.stop()
    }
}
