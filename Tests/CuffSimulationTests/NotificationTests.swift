import DBusTestSupport
import DBus
import Testing

@Suite("cuff-sim: notifications, indications and reads")
struct NotificationTests {
    @Test("Stored records are indicated on every enabling of 0x2A35; the timeline runs once, from the first")
    func storedRecordsAndTimeline() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff(
                storedRecords: [ScenarioText.recordA],
                timeline: #"[{"after": 0.1, "notify": "2A36", "hex": "00 28 00 FF 07 FF 07"}, {"after": 0.2, "indicate": "2A35", "hex": "\#(ScenarioText.recordB)"}, {"after": 0.3, "disconnect": true}, {"after": 0.4, "advertise": true}]"#))
            teardown.add { await harness.stop() }
            try await harness.discover()
            try await harness.connectAndResolve()
            let cuffPressure = try await harness.characteristicPath("2a36")
            let measurement = try await harness.characteristicPath("2a35")
            let signals = try await harness.recordSignals()
            _ = try await harness.call(cuffPressure, "org.bluez.GattCharacteristic1", "StartNotify")
            _ = try await harness.call(measurement, "org.bluez.GattCharacteristic1", "StartNotify")

            let stored = try await signals.next { $0.changes(measurement)?["Value"] != nil }
            #expect(stored.changes(measurement)?["Value"] == .bytes(bytes(ScenarioText.recordA)))
            let notified = try await signals.next { $0.changes(cuffPressure)?["Value"] != nil }
            #expect(notified.changes(cuffPressure)?["Value"] == .bytes([0x00, 0x28, 0x00, 0xFF, 0x07, 0xFF, 0x07]))
            let indicated = try await signals.next { $0.changes(measurement)?["Value"] != nil }
            #expect(indicated.changes(measurement)?["Value"] == .bytes(bytes(ScenarioText.recordB)))

            // The notify session outlives the link: on reconnection bluetoothd re-enables it and the
            // cuff re-sends its history, but its script ran once.
            _ = try await signals.next { $0.changes(EmulatorHarness.device)?["Connected"] == .boolean(false) }
            try await harness.events.waitFor("\(EmulatorHarness.cuffName) advertising")
            _ = try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Connect")
            let resent = try await signals.next { $0.changes(measurement)?["Value"] != nil }
            #expect(resent.changes(measurement)?["Value"] == .bytes(bytes(ScenarioText.recordA)))
            // A script started again would still be playing: once the emulator has settled, nothing more comes.
            try await harness.settle(signals)
            let later = signals.all.compactMap { $0.changes(measurement)?["Value"] }
            #expect(later == [.bytes(bytes(ScenarioText.recordA)), .bytes(bytes(ScenarioText.recordB)), .bytes(bytes(ScenarioText.recordA))])
        }
    }

    @Test("Device Information and Feature read; writes and reads the characteristic forbids are refused")
    func readsAndWrites() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff())
            teardown.add { await harness.stop() }
            try await harness.discover()
            try await harness.connectAndResolve()
            let manufacturer = try await harness.characteristicPath("2a29")
            #expect(try await harness.call(manufacturer, "org.bluez.GattCharacteristic1", "ReadValue", [.dictionary(key: .string, value: .variant, [])])
                == [.bytes(Array("cuffd project".utf8))])
            let feature = try await harness.characteristicPath("2a49")
            #expect(try await harness.call(feature, "org.bluez.GattCharacteristic1", "ReadValue", [.dictionary(key: .string, value: .variant, [])])
                == [.bytes([0x27, 0x00])])
            let measurement = try await harness.characteristicPath("2a35")
            let read = await #expect(throws: DBusError.self) {
                try await harness.call(measurement, "org.bluez.GattCharacteristic1", "ReadValue", [.dictionary(key: .string, value: .variant, [])])
            }
            #expect(read?.name.rawValue == "org.bluez.Error.NotPermitted")
            // Without `type`, bluetoothd finds no write property and refuses by itself; a Write Request goes
            // out and the cuff answers "Write Not Permitted" (characteristic_write_value() in BlueZ 5.66).
            let untyped = await #expect(throws: DBusError.self) {
                try await harness.write([1], to: feature, type: nil)
            }
            #expect(untyped?.name.rawValue == "org.bluez.Error.NotSupported")
            let write = await #expect(throws: DBusError.self) {
                try await harness.write([1], to: feature)
            }
            #expect(write?.name.rawValue == "org.bluez.Error.NotPermitted")
            #expect(write?.message == "Write not permitted")
            // A Write Command gets no answer: the call succeeds and the cuff ignores it.
            try await harness.write([1], to: feature, type: "command")
            #expect(harness.events.all.contains { $0.hasSuffix("0x2A49 Write Command ignored: 01") })
            #expect(try await harness.read(feature) == [0x27, 0x00])
            let stop = await #expect(throws: DBusError.self) {
                try await harness.call(measurement, "org.bluez.GattCharacteristic1", "StopNotify")
            }
            #expect(stop?.name.rawValue == "org.bluez.Error.Failed")
        }
    }
}

func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex)
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
}
