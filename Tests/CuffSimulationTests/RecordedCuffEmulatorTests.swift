import BlueZ
import CuffSimulation
import DBus
import DBusTestSupport
import Foundation
import Testing

/// A recorded cuff on cuff-sim's bluetoothd (docs/cuff-sim.md, "Recorded cuffs"): its database exported at the
/// recorded handles with its descriptors, reads and refusals as recorded, what follows a write answered once the
/// client makes it, values held for their session, and the cuff back for its next link when the recording says.
@Suite("cuff-sim: recorded cuffs")
struct RecordedCuffEmulatorTests {
    static let scenario = """
        {"adapter": {"address": "00:1A:7D:DA:71:13"},
         "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "BP-1", "recorded": {
           "uuids": ["1810"],
           "services": [{"uuid": "1810", "handle": 32, "characteristics": [
             {"uuid": "2A35", "handle": 33, "flags": ["indicate"], "descriptors": [{"uuid": "2902", "handle": 35, "flags": ["read"]}]},
             {"uuid": "2A49", "handle": 36, "flags": ["read"], "hex": "27 00", "descriptors": [{"uuid": "2901", "handle": 38, "flags": ["read"], "hex": "46 65 61 74"}]},
             {"uuid": "2A52", "handle": 39, "flags": ["write", "indicate"]},
             {"uuid": "2A2B", "handle": 42, "flags": ["read"], "readError": "org.bluez.Error.NotPermitted: Not paired"}]}],
           "links": [
             {"steps": [
               {"after": 0, "indicate": "2A35", "hex": "\(ScenarioText.recordA)"},
               {"after": 0.1, "write": "2A52", "hex": "01 01"},
               {"after": 0.11, "indicate": "2A52", "hex": "06 00 01 06"},
               {"after": 0.12, "write": "2A52", "hex": "04 01", "refused": "org.bluez.Error.Failed: Operation failed with ATT error: 0xfe"},
               {"after": 0.2, "read": "2A49", "hex": "27 01"},
               {"after": 0.3, "disconnect": true}]},
             {"after": 0.2, "steps": []}]}}]}
        """

    @Test func theRecordingAnswersAsTheCuffDid() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(Self.scenario)
            teardown.add { await harness.stop() }
            try await harness.discover()
            try await harness.connectAndResolve()
            let objects = try await harness.managedObjects()
            let service = try DBusObjectPath("\(EmulatorHarness.device)/service0020")
            #expect(objects[try service.appending("char0021")]?["org.bluez.GattCharacteristic1"] != nil, "at the recorded handles")
            let label = try #require(objects[try service.appending("char0024").appending("desc0026")]?["org.bluez.GattDescriptor1"])
            #expect(try label.property("UUID", as: String.self) == "00002901-0000-1000-8000-00805f9b34fb")
            let described = try await harness.call(try service.appending("char0024").appending("desc0026"), "org.bluez.GattDescriptor1", "ReadValue", [[String: DBusVariant]().dbusValue])
            #expect(try described[0].decode([UInt8].self) == Array("Feat".utf8))

            let feature = try await harness.characteristicPath("2a49")
            #expect(try await harness.read(feature) == [0x27, 0x00])
            await #expect(throws: DBusError(DBusError.Name(rawValue: "org.bluez.Error.NotPermitted"), "Not paired")) {
                _ = try await harness.read(try await harness.characteristicPath("2a2b"))
            }

            // The stored record waits for its session; the RACP answer for its request.
            let signals = try await harness.recordSignals()
            let measurement = try await harness.characteristicPath("2a35")
            let control = try await harness.characteristicPath("2a52")
            try await harness.startNotify(measurement)
            _ = try await signals.next { $0.changes(measurement)?["Value"] == .bytes(bytes(ScenarioText.recordA)) }
            try await harness.startNotify(control)
            try await harness.write([0x01, 0x01], to: control)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0x06, 0x00, 0x01, 0x06]) }
            await #expect(throws: DBusError(DBusError.Name(rawValue: "org.bluez.Error.Failed"), "Operation failed with ATT error: 0xfe")) {
                try await harness.write([0x04, 0x01], to: control)
            }
            // The cuff drops the link, and comes back for its next recorded link.
            _ = try await signals.next { $0.changes(EmulatorHarness.device)?["Connected"] == .boolean(false) }
            try await harness.events.waitFor("advertising (its next recorded link)", count: 1)
        }
    }

    /// Two links an hour apart, as a person who woke the cuff much later would have made them.
    static let anHourApart = """
        {"adapter": {"address": "00:1A:7D:DA:71:13"},
         "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "BP-1", "recorded": {
           "uuids": ["1810"],
           "services": [{"uuid": "1810", "handle": 32, "characteristics": [{"uuid": "2A35", "handle": 33, "flags": ["indicate"]}]}],
           "links": [{"steps": [{"after": 0, "subscribe": "2A35"}, {"after": 0.1, "disconnect": true}]}, {"after": 3600, "steps": []}]}}]}
        """

    @Test("With manualStart, a recorded cuff comes back for its next link once START is pressed, not at the recorded gap")
    func startBringsTheNextLink() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(Self.anHourApart, manualStart: true)
            teardown.add { await harness.stop() }
            try await harness.discover()
            try await harness.connectAndResolve()
            // The first link ends once the session is started, as recorded: not before the test has seen it resolved.
            try await harness.startNotify(try await harness.characteristicPath("2a35"))
            try await harness.events.waitFor("\(EmulatorHarness.cuffName) waiting for START")
            #expect(harness.events.count("advertising (its next recorded link)") == 0)
            _ = try await harness.client.call(
                BluezEmulator.controlName, BluezEmulator.controlPath, BluezEmulator.controlInterface, "PressStart",
                [.string(EmulatorHarness.address.description)], timeout: testDeadline)
            try await harness.events.waitFor("advertising (its next recorded link)", count: 1)
        }
    }
}
