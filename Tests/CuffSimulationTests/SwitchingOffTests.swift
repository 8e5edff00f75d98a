import BlueZ
@testable import CuffSimulation
import DBus
import DBusTestSupport
import Foundation
import GATTHealth
import Testing

/// A cuff that switches itself off when asked for its history (`switchesOffOnRecordRequest`, a Beurer BM48:
/// docs/reference/GATT-HEALTH.md §13.9): a write to RACP ends the link from its side, and it never advertises again.
@Suite("cuff-sim: a cuff that switches off when asked for its records")
struct SwitchingOffTests {
    static let scenario = ScenarioText.oneCuff(feature: "4001", extra: #"""
        "records": [{"sequence": 3, "hex": "46 80 00 54 00 63 00 D8 9E 92 32 46 00"}], "switchesOffOnRecordRequest": true
        """#)

    @Test("A RACP write ends the link from the cuff's side; an advertise step afterwards leaves it off")
    func racpSwitchesItOff() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(Self.scenario)
            teardown.add { await harness.stop() }
            try await harness.discover()
            try await harness.connectAndResolve()
            let racp = try await harness.characteristicPath(HealthCharacteristic.recordAccessControlPoint.uuid)
            let signals = try await harness.recordSignals()
            try await harness.write([0x01, 0x01], to: racp)
            _ = try await signals.next { $0.changes(EmulatorHarness.device)?["Connected"] == .boolean(false) }
            #expect(harness.events.all.contains { $0.contains("0x2A52 written: 01 01; the cuff switches itself off") })
            #expect(harness.events.all.contains { $0.contains("disconnected by the cuff") })

            await harness.emulator.perform(.advertise, cuffAt: EmulatorHarness.address)
            #expect(harness.events.all.contains { $0.contains("is switched off: it does not advertise") })
            await #expect(throws: DBusError.self) { try await harness.connectAndResolve() }
        }
    }

    @Test func itNeedsRecords() {
        let text = ScenarioText.oneCuff(extra: #""switchesOffOnRecordRequest": true"#)
        #expect(throws: ScenarioError(path: "cuffs[0].switchesOffOnRecordRequest", message: "needs records")) {
            try Scenario.parse(Data(text.utf8))
        }
    }
}
