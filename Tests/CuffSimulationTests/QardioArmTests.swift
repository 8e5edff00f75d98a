import DBusTestSupport
@testable import CuffSimulation
import DBus
import GATTHealth
import Testing

/// QardioArm's vendor start/cancel control point (docs/reference/GATT-HEALTH.md §12).
@Suite("cuff-sim: QardioArm start and cancel")
struct QardioArmTests {
    static let onStart = #"""
        "vendor": "qardioArm", "onStart": [
          {"after": 0.1, "notify": "2A36", "hex": "00 28 00 FF 07 FF 07"},
          {"after": 0.2, "notify": "2A36", "hex": "00 78 00 FF 07 FF 07"},
          {"after": 1.0, "indicate": "2A35", "hex": "\#(ScenarioText.recordB)"}]
        """#
    /// A measurement that is still pumping when the test cancels it: its reading is due in an hour.
    static let pumping = #"""
        "vendor": "qardioArm", "onStart": [
          {"after": 0.1, "notify": "2A36", "hex": "00 28 00 FF 07 FF 07"},
          {"after": 3600, "indicate": "2A35", "hex": "\#(ScenarioText.recordB)"}]
        """#

    /// A connected QardioArm with its control point, 0x2A36 and 0x2A35 subscribed.
    static func subscribed(_ vendor: String = onStart) async throws -> (EmulatorHarness, control: DBusObjectPath, pressure: DBusObjectPath, measurement: DBusObjectPath) {
        let harness = try await EmulatorHarness(ScenarioText.oneCuff(extra: vendor))
        try await harness.discover()
        try await harness.connectAndResolve()
        let control = try await harness.characteristicPath(QardioArmControlPoint.uuid)
        let pressure = try await harness.characteristicPath("2a36")
        let measurement = try await harness.characteristicPath("2a35")
        for path in [control, pressure, measurement] { try await harness.startNotify(path) }
        return (harness, control, pressure, measurement)
    }

    @Test("F1 01: F2 01 (inflating), the onStart values, then F2 04 (completed)")
    func start() async throws {
        try await withTeardown { teardown in
            let (harness, control, pressure, measurement) = try await Self.subscribed()
            teardown.add { await harness.stop() }
            #expect(control.text.hasPrefix(EmulatorHarness.device.text + "/service"))
            #expect(try await harness.property(control, "org.bluez.GattCharacteristic1", "Flags") == ["write", "notify"].dbusValue)
            let signals = try await harness.recordSignals()
            try await harness.write(QardioArmControlPoint.Command.start.encoded(), to: control)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0xF2, 0x04]) }
            let order = signals.all.compactMap { message -> String? in
                for (path, name) in [(control, "control"), (pressure, "2A36"), (measurement, "2A35")] {
                    if case .bytes(let value)? = message.changes(path)?["Value"] { return "\(name) \(Hex.bytes(value))" }
                }
                return nil
            }
            #expect(order == ["control F2 01", "2A36 00 28 00 FF 07 FF 07", "2A36 00 78 00 FF 07 FF 07",
                              "2A35 \(Hex.bytes(bytes(ScenarioText.recordB)))", "control F2 04"])
        }
    }

    @Test("F1 02 while measuring stops the script and notifies F2 05 (aborted)")
    func cancel() async throws {
        try await withTeardown { teardown in
            let (harness, control, _, measurement) = try await Self.subscribed(Self.pumping)
            teardown.add { await harness.stop() }
            let signals = try await harness.recordSignals()
            try await harness.write([0xF1, 0x01], to: control)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0xF2, 0x01]) }
            try await harness.write([0xF1, 0x02], to: control)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0xF2, 0x05]) }
            // The emulator settles only once the canceled script has ended: a script that went on would keep it busy
            // for an hour, and fail this at the deadline.
            try await harness.settle(signals)
            let readingAfterCancel = signals.all.contains { $0.changes(measurement)?["Value"] != nil }
            let completed = signals.all.contains { $0.changes(control)?["Value"] == .bytes([0xF2, 0x04]) }
            #expect(!readingAfterCancel, "no reading after the cancel")
            #expect(!completed)
            // Cancel with nothing running is taken and changes nothing.
            try await harness.write([0xF1, 0x02], to: control)
            try await harness.settle(signals)
            #expect(signals.all.filter { $0.changes(control)?["Value"] == .bytes([0xF2, 0x05]) }.count == 1)
        }
    }

    @Test("Anything but F1 01 or F1 02 is refused with an ATT error", arguments: [[0xF1, 0x03], [0xF2, 0x01], [0xF1], [0xF1, 0x01, 0x00]] as [[UInt8]])
    func otherWrites(_ value: [UInt8]) async throws {
        try await withTeardown { teardown in
            let (harness, control, _, _) = try await Self.subscribed()
            teardown.add { await harness.stop() }
            let refused = await #expect(throws: DBusError.self) { try await harness.write(value, to: control) }
            #expect(refused?.name.rawValue == "org.bluez.Error.Failed")
            #expect(refused?.message == "Operation failed with ATT error: 0x13")
        }
    }
}
