import BlueZ
import DBusTestSupport
import Foundation
import Gateway
import GATTHealth
import Testing

/// The Gateway over the real D-Bus path, against cuff-sim on a private bus: what the in-process tests take on trust
/// from the in-memory central — bluetoothd's agent asking for a passkey, a measurement arriving over a link
/// bluetoothd set up by itself — shown end to end. The shipped scenarios (ShippedScenarioGatewayTests) and the
/// Omron downloads (OmronGatewayTests) run this way too.
@Suite("Gateway over cuff-sim: end to end")
struct GatewayEndToEndTests {
    @Test("start shows the cuff pressure as it rises, then the new reading; re-sent records do not end it")
    func measurementWithProgress() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: "one-cuff.json", manualStart: true)
            teardown.add { await harness.stop() }
            let cuff = BluetoothAddress("C4:F3:12:53:F2:C9")!
            try await harness.pairAll()
            let updates = try await harness.gateway.startMeasurement(cuff, timeout: .seconds(60))
            // Armed: the user presses START.
            try await harness.pressStart([cuff])
            let seen = await MeasurementSeen(updates)
            #expect(seen.otherEnd == nil)
            #expect(seen.pressures == [40, 120, 180])
            #expect(seen.reading?.systolic.doubleValue == 122)
            #expect(seen.reading?.userID == 1)
            // The stored record, indicated on the pairing link and again on the wake-up link, stored once.
            #expect(await harness.store.readings.count == 2)
        }
    }

    @Test("A passkey asked for through the control API while bluetoothd waits; a wrong one fails")
    func passkeyRelayed() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: "passkey.json")
            teardown.add { await harness.stop() }
            let cuff = BluetoothAddress("D0:5F:B8:4A:21:07")!
            let answering = Task {
                try await harness.next { if case .passkeyRequested(cuff) = $0 { true } else { false } }
                try await harness.gateway.providePasskey(123_456, for: cuff)
            }
            let status = try await harness.gateway.pair(cuff, passkey: nil, timeout: .seconds(30))
            try await answering.value
            #expect(status.paired && status.trusted)

            let again = try await GatewayHarness(scenarioFile: "passkey.json")
            teardown.add { await again.stop() }
            let failure = await #expect(throws: GatewayError.self) { try await again.gateway.pair(cuff, passkey: 111_111, timeout: .seconds(30)) }
            guard case .bluez(let error)? = failure else { Issue.record("\(String(describing: failure))"); return }
            #expect(error.kind == .authenticationFailed)
        }
    }
}
