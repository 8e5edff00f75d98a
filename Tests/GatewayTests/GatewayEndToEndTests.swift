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

    /// On the first link bluetoothd exports the GATT objects after `ServicesResolved` (docs/acceptance.md, "BlueZ 5.66 as
    /// measured"), and the mirror takes them a signal at a time, so 0x2A08 may not be in it yet when 0x2A35 is: the
    /// Gateway waits until it holds every characteristic bluetoothd holds (docs/reference/BLUEZ-DBUS.md §6).
    @Test("A&D UA-651BLE: its Date Time clock is written on the pairing link, though the object follows 0x2A35's")
    func dateTimeClockOnThePairingLink() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: "and-ua651ble.json", manualStart: true)
            teardown.add { await harness.stop() }
            let cuff = BluetoothAddress("5C:31:3E:65:1B:01")!
            try await harness.pairAll()
            // pair returns once the pairing link's provisioning is over; START is not pressed, so the link is still up.
            let written = harness.events.all.filter { if case .clockSynchronized(cuff, nil, true) = $0 { true } else { false } }
            #expect(written.count == 1)
            #expect(harness.log.all.filter { $0.contains("0x2A08 written") }.count == 1, "\(harness.log.all)")
            #expect(await harness.gateway.status(cuff)?.connected == true)
        }
    }

    /// The same for 0x2A52 and 0x2B36, which follow 0x2A35 in the database: the pairing link asks for the stored records.
    @Test("RACP: the stored records are asked for on the pairing link, though 0x2A52's object follows 0x2A35's")
    func recordsOnThePairingLink() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: "racp-records.json", manualStart: true)
            teardown.add { await harness.stop() }
            try await harness.pairAll()
            // pair returns once the pairing link's provisioning is over; START is not pressed, so that link is still up.
            #expect(harness.log.all.contains { $0.hasSuffix("0x2A52 written: 01 01") }, "Report Stored Records: \(harness.log.all)")
            #expect(await harness.gateway.status(BluetoothAddress("F4:5E:AB:27:90:3C")!)?.connected == true)
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
