import BlueZ
@testable import CuffSimulation
import DBus
import DBusTestSupport
import Foundation
import GATTHealth
import Testing

/// An A&D cuff as cuff-sim plays it (docs/reference/GATT-HEALTH.md §13.8): its clock taken as a Date Time 0x2A08 written into
/// 0x1810, A&D's command characteristic whose disconnect request ends the link, and a UA-1200BLE's cooperation mode in
/// its advertisement.
@Suite("cuff-sim: an A&D cuff")
struct AAndDEmulationTests {
    static func scenario(cooperationMode: Bool = false) -> String {
        ScenarioText.oneCuff(extra: #"""
            "clock": {"start": "2020-01-01T00:00:00", "characteristic": "2A08"}, "vendor": "aAndD",
                "aAndD": {"cooperationMode": \#(cooperationMode)}
            """#)
    }

    @Test("A Date Time written into 0x1810 sets the clock; it has no read; other lengths and impossible times are refused")
    func dateTimeClock() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(Self.scenario())
            teardown.add { await harness.stop() }
            try await harness.discover()
            try await harness.connectAndResolve()
            let path = try await harness.characteristicPath("2a08")
            #expect(try await harness.property(path, "org.bluez.GattCharacteristic1", "Flags") == ["write"].dbusValue)
            #expect(try #require(await harness.emulator.clock(of: EmulatorHarness.address)).year == 2020)

            let written = DateTime(year: 2026, month: 11, day: 23, hours: 7, minutes: 15, seconds: 0)
            try await harness.expectClockSet(to: written, writing: written.encoded(), to: path)
            #expect(harness.events.all.contains { $0.contains("0x2A08 written: \(Hex.bytes(written.encoded())); clock set to 2026-11-23T07:15") })

            let short = await #expect(throws: DBusError.self) { try await harness.write(Array(written.encoded().dropLast()), to: path) }
            #expect(short?.message == "Invalid Length")
            var impossible = written.encoded()
            impossible[2] = 13
            let refused = await #expect(throws: DBusError.self) { try await harness.write(impossible, to: path) }
            #expect(refused?.message == "Operation failed with ATT error: 0x13")
            let read = await #expect(throws: DBusError.self) { try await harness.read(path) }
            #expect(read?.name.rawValue == "org.bluez.Error.NotPermitted")
        }
    }

    @Test("A&D's disconnect request ends the link from the cuff's side; another command is only logged")
    func disconnectRequest() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(Self.scenario())
            teardown.add { await harness.stop() }
            try await harness.discover()
            try await harness.connectAndResolve()
            let path = try await harness.characteristicPath(AAndDService.command)
            try await harness.write([0x02, 0x00, 0xE1], to: path)
            #expect(try await harness.property(EmulatorHarness.device, "org.bluez.Device1", "Connected") == .boolean(true))
            let signals = try await harness.recordSignals()
            try await harness.write(AAndDService.disconnectRequest, to: path)
            _ = try await signals.next { $0.changes(EmulatorHarness.device)?["Connected"] == .boolean(false) }
            #expect(harness.events.all.contains { $0.contains("A&D command written: 02 00 E1") })
            #expect(harness.events.all.contains { $0.contains("disconnected by the cuff") })
        }
    }

    @Test func inCooperationModeItAdvertisesAAndDsService() async throws {
        for mode in [false, true] {
            try await withTeardown { teardown in
                let harness = try await EmulatorHarness(Self.scenario(cooperationMode: mode))
                teardown.add { await harness.stop() }
                try await harness.discover()
                let uuids = try await harness.property(EmulatorHarness.device, "org.bluez.Device1", "UUIDs").decode([String].self)
                #expect(uuids.contains(AAndDService.uuid) == mode)
            }
        }
    }

    @Test("A Date Time clock needs 0x1810; an aAndD object needs the vendor")
    func validation() throws {
        let noBloodPressure = ScenarioText.oneCuff(
            services: #"["180D"]"#, extra: #""clock": {"start": "2020-01-01T00:00:00", "characteristic": "2A08"}"#)
        #expect(throws: ScenarioError(path: "cuffs[0].clock.characteristic", message: "needs service 1810")) {
            try Scenario.parse(Data(noBloodPressure.utf8))
        }
        let orphan = ScenarioText.oneCuff(extra: #""aAndD": {"cooperationMode": true}"#)
        #expect(throws: ScenarioError(path: "cuffs[0].aAndD", message: "needs \"vendor\": \"aAndD\"")) { try Scenario.parse(Data(orphan.utf8)) }
        let unknown = ScenarioText.oneCuff(extra: #""clock": {"start": "2020-01-01T00:00:00", "characteristic": "2A2C"}"#)
        #expect(throws: (any Error).self) { try Scenario.parse(Data(unknown.utf8)) }
    }
}
