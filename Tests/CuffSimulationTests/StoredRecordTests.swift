import DBusTestSupport
import DBus
import GATTHealth
import Testing

/// A BPS 1.1 cuff over the bus: RACP 0x2A52 requests, records indicated on 0x2B36 in segments, responses
/// (docs/reference/GATT-HEALTH.md §7–§8).
@Suite("cuff-sim: stored records through RACP")
struct StoredRecordTests {
    static func scenario(feature: String = "0000", segmentSize: Int? = 8) -> String {
        let records = #""records": [{"sequence": 7, "hex": "\#(ScenarioText.enhancedA)"}, {"sequence": 8, "hex": "\#(ScenarioText.enhancedB)"}, {"sequence": 11, "hex": "\#(ScenarioText.enhancedC)"}]"#
        return ScenarioText.oneCuff(feature: feature, extra: records + (segmentSize.map { #", "recordSegmentSize": \#($0)"# } ?? ""))
    }

    /// A connected BPS 1.1 cuff with the paths of 0x2B36 and 0x2A52.
    static func connected(_ scenario: String) async throws -> (EmulatorHarness, record: DBusObjectPath, control: DBusObjectPath) {
        let harness = try await EmulatorHarness(scenario)
        try await harness.discover()
        try await harness.connectAndResolve()
        return (harness, try await harness.characteristicPath("2b36"), try await harness.characteristicPath("2a52"))
    }

    /// A connected BPS 1.1 cuff with indications on 0x2B36 and 0x2A52, and the signals from then on.
    static func subscribed(_ scenario: String) async throws -> (EmulatorHarness, record: DBusObjectPath, control: DBusObjectPath, StreamRecorder<DBusMessage>) {
        let (harness, record, control) = try await connected(scenario)
        try await harness.startNotify(record)
        try await harness.startNotify(control)
        return (harness, record, control, try await harness.recordSignals())
    }

    /// The values indicated on `path` among the recorded signals.
    static func values(_ signals: StreamRecorder<DBusMessage>, _ path: DBusObjectPath) -> [[UInt8]] {
        signals.all.compactMap { message -> [UInt8]? in
            guard case .bytes(let value)? = message.changes(path)?["Value"] else { return nil }
            return value
        }
    }

    @Test("The 1810 service of a cuff with records has 0x2B34, 0x2B36 and RACP with BPS 1.1 properties")
    func characteristics() async throws {
        try await withTeardown { teardown in
            let (harness, record, control) = try await Self.connected(Self.scenario())
            teardown.add { await harness.stop() }
            let enhanced = try await harness.characteristicPath("2b34")
            for (path, flags) in [(enhanced, ["indicate"]), (record, ["indicate"]), (control, ["write", "indicate"])] {
                #expect(try await harness.property(path, "org.bluez.GattCharacteristic1", "Flags") == flags.dbusValue)
            }
            let plain = try await EmulatorHarness(ScenarioText.oneCuff())
            teardown.add { await plain.stop() }
            try await plain.discover()
            try await plain.connectAndResolve()
            // Resolved: every object of its database is on the bus, and RACP is not among them.
            #expect(try await plain.exportedCharacteristic("2a52") == nil)
        }
    }

    @Test("A RACP write before indications are on fails as bluetoothd reports ATT error 0xFD")
    func needsIndications() async throws {
        try await withTeardown { teardown in
            let (harness, record, control) = try await Self.connected(Self.scenario())
            teardown.add { await harness.stop() }
            let refused = await #expect(throws: DBusError.self) { try await harness.write([0x01, 0x01], to: control) }
            #expect(refused?.name.rawValue == "org.bluez.Error.Failed")
            #expect(refused?.message == "Operation failed with ATT error: 0xfd")
            // A report also needs 0x2B36; counting does not.
            try await harness.startNotify(control)
            let report = await #expect(throws: DBusError.self) { try await harness.write([0x01, 0x01], to: control) }
            #expect(report?.message == "Operation failed with ATT error: 0xfd")
            let signals = try await harness.recordSignals()
            try await harness.write([0x04, 0x01], to: control)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0x05, 0x00, 0x03, 0x00]) }
            try await harness.startNotify(record)
            try await harness.write([0x01, 0x05], to: control)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0x06, 0x00, 0x01, 0x01]) }
        }
    }

    @Test("Report all: every record in segments that reassemble into its 0x2B34 value, then Success")
    func reportAll() async throws {
        try await withTeardown { teardown in
            let (harness, record, control, signals) = try await Self.subscribed(Self.scenario())
            teardown.add { await harness.stop() }
            try await harness.write([0x01, 0x01], to: control)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0x06, 0x00, 0x01, 0x01]) }

            let segments = Self.values(signals, record)
            #expect(segments.count > 3, "8-byte segments split each record")
            #expect(segments.allSatisfy { $0.count <= 8 })
            var assembler = BloodPressureRecordAssembler(feature: [])
            let records = try segments.compactMap { try assembler.append($0) }
            #expect(records.map(\.sequenceNumber) == [7, 8, 11])
            #expect(records.map(\.recordedCharacteristicUUID) == [0x2B34, 0x2B34, 0x2B34])
            #expect(records.map(\.recordedValue) == [ScenarioText.enhancedA, ScenarioText.enhancedB, ScenarioText.enhancedC].map(spaced))
            // The rolling counter carries on across records.
            #expect(segments.map { $0[0] >> 2 } == (0..<segments.count).map { UInt8($0) })
            // Reports leave the records where they are.
            try await harness.write([0x04, 0x01], to: control)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0x05, 0x00, 0x03, 0x00]) }
        }
    }

    @Test("A cuff whose Feature has bit 6 ends each record with its E2E-CRC")
    func e2eCRC() async throws {
        try await withTeardown { teardown in
            let (harness, record, control, signals) = try await Self.subscribed(Self.scenario(feature: "4000", segmentSize: nil))
            teardown.add { await harness.stop() }
            try await harness.write([0x01, 0x06], to: control)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0x06, 0x00, 0x01, 0x01]) }
            let segments = Self.values(signals, record)
            #expect(segments.count == 1, "the ATT payload holds a whole record")
            var assembler = BloodPressureRecordAssembler(feature: .e2eCRC)
            let last = try #require(try assembler.append(segments[0]))
            #expect(last.sequenceNumber == 11)
            #expect(last.recordedValue == spaced(ScenarioText.enhancedC))
            #expect(last.e2eCRC != nil)
            #expect(segments[0].count == 5 + spaced(ScenarioText.enhancedC).count + 2)
        }
    }

    @Test("Delete removes the matching records; a second report finds none")
    func delete() async throws {
        try await withTeardown { teardown in
            let (harness, record, control, signals) = try await Self.subscribed(Self.scenario())
            teardown.add { await harness.stop() }
            try await harness.write([0x02, 0x02, 0x01, 0x08, 0x00], to: control)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0x06, 0x00, 0x02, 0x01]) }
            #expect(harness.events.all.contains { $0.hasSuffix("records deleted: 7, 8") })
            try await harness.write([0x01, 0x02, 0x01, 0x08, 0x00], to: control)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0x06, 0x00, 0x01, 0x06]) }
            try await harness.write([0x04, 0x01], to: control)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0x05, 0x00, 0x01, 0x00]) }
        }
    }

    /// How many records `longMemory` holds.
    static let longMemoryRecords = 1500

    /// A cuff with 1500 records in 6-byte segments: a report of them all is 6000 indications at least 10 ms apart,
    /// over a minute, longer than a test waits for anything; a request made while it runs finds it running on any
    /// machine.
    static func longMemory(timeline: String = "[]") -> String {
        let records = (1...longMemoryRecords).map { #"{"sequence": \#($0), "hex": "\#(ScenarioText.enhancedA)"}"# }
        return ScenarioText.oneCuff(timeline: timeline, extra: #""recordSegmentSize": 6, "records": ["# + records.joined(separator: ", ") + "]")
    }

    @Test("While a report runs only Abort is taken; Abort stops it and answers Success for itself")
    func abort() async throws {
        try await withTeardown { teardown in
            let (harness, record, control, signals) = try await Self.subscribed(Self.longMemory())
            teardown.add { await harness.stop() }
            try await harness.write([0x01, 0x01], to: control)
            let busy = await #expect(throws: DBusError.self) { try await harness.write([0x04, 0x01], to: control) }
            #expect(busy?.message == "Operation failed with ATT error: 0xfe")
            _ = try await signals.next { $0.changes(record)?["Value"] != nil }
            try await harness.write([0x03, 0x00], to: control)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0x06, 0x00, 0x03, 0x01]) }
            // Once the emulator has settled, the aborted report has ended: what is recorded is all it sent.
            try await harness.settle(signals)
            #expect(Self.values(signals, record).count < Self.longMemoryRecords * 4, "a whole report is 4 segments a record")
            let order = signals.all.compactMap { message -> String? in
                message.changes(record)?["Value"] != nil ? "0x2B36" : message.changes(control)?["Value"] != nil ? "0x2A52" : nil
            }
            #expect(order.last == "0x2A52", "nothing after the abort's response")
            #expect(Self.values(signals, control) == [[0x06, 0x00, 0x03, 0x01]], "the aborted report sends no response")
        }
    }

    @Test("The link dropping ends a report; the records stay for the next link")
    func linkLoss() async throws {
        try await withTeardown { teardown in
            // The cuff advertises again meanwhile, so the host can connect after dropping the link.
            let (harness, record, control) = try await Self.connected(Self.longMemory(timeline: #"[{"after": 0, "advertise": true}]"#))
            teardown.add { await harness.stop() }
            try await harness.startNotify(try await harness.characteristicPath("2a35"))
            try await harness.startNotify(record)
            try await harness.startNotify(control)
            let signals = try await harness.recordSignals()
            try await harness.write([0x01, 0x01], to: control)
            _ = try await signals.next { $0.changes(record)?["Value"] != nil }
            _ = try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Disconnect")
            // The report ended with the link: once the emulator has settled, no response has come.
            try await harness.settle(signals)
            #expect(Self.values(signals, control).isEmpty)
            try await harness.connectAndResolve()
            try await harness.write([0x04, 0x01], to: control)
            let count = UInt16(Self.longMemoryRecords)
            _ = try await signals.next { $0.changes(control)?["Value"] == .bytes([0x05, 0x00, UInt8(count & 0xFF), UInt8(count >> 8)]) }
        }
    }
}

/// The bytes of a hex string with spaces.
func spaced(_ hex: String) -> [UInt8] { bytes(hex.replacingOccurrences(of: " ", with: "")) }
