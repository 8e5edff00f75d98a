@testable import CuffSimulation
import DBusTestSupport
import Foundation
import GATTHealth
import Testing

/// The VM's Bumble radio (`Acceptance/acceptance/microlife.py`, docs/acceptance.md) and cuff-sim's `MicrolifeCuff`
/// answer the same writes to 0xFFF2 with the same notifications on 0xFFF1, byte for byte, and end the link on the same
/// one (docs/reference/GATT-HEALTH.md §13.12): every command, frames in pieces, and the frames both refuse.
@Suite("The VM radio's Microlife cuff is cuff-sim's")
struct MicrolifeRadioParityTests {
    /// Loads a scenario as the radio does (`scenario.load`) and prints, per write (hex, one per argument) to its Microlife
    /// cuff, the notifications it answers with (hex, comma-separated) and whether it then ends the link.
    static let radio = """
        import sys
        sys.path.insert(0, sys.argv[1])
        from acceptance import microlife, scenario
        cuff = microlife.MicrolifeCuff(next(c for c in scenario.load(sys.argv[2]).cuffs if c.microlife).microlife)
        for write in sys.argv[3:]:
            reaction = cuff.write(bytes.fromhex(write))
            print(','.join(n.hex() for n in reaction.notifications), reaction.disconnects)
        """

    /// A download as cuffd makes it, a patient ID set between two reads of them, and what no answer follows: a bad
    /// checksum, a bad start, an overlong frame, a frame announcing no room for its checksum, an unknown command, a
    /// clock command of the wrong length; last *disconnect*.
    static func writes() throws -> [[UInt8]] {
        let clock = try MicrolifeCommand.setDateTime(DateTime(year: 2026, month: 11, day: 27, hours: 23, minutes: 14, seconds: 5))
        let good = [clock, .patientIDs, try .setPatientID("BOB 12"), .patientIDs, .readings].flatMap { $0.writes() }
        let refused: [[UInt8]] = [
            [0x4D, 0xFF, 0x00, 0x02, 0x05, 0x54], [0x4D, 0x00, 0x00, 0x02, 0x05, 0x53], [0x4D, 0xFF, 0x00, 0x02, 0x05, 0x53, 0x00],
            [0x4D, 0xFF, 0x00, 0x00], MicrolifeCommand(code: 0x07).encoded(), MicrolifeCommand(code: 0x0D, parameters: [26, 11]).encoded(),
        ]
        return good + refused + MicrolifeCommand.disconnect.writes()
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the shipped scenario's cuff")
    func shipped() async throws {
        try await Self.compare(Self.root.appendingPathComponent("scenarios/microlife-bp3gy1.json"))
    }

    @Test("user 1 selected, a 20-character ID, the last year the clock holds, and an empty memory", arguments: [
        #"{"selectedUser": 1, "patientIDs": ["", "ABCDEFGHIJKLMNOPQRST"], "readings": [{"systolic": 255, "diastolic": 0, "pulse": 61, "time": "2255-12-31T23:59:00"}, {"systolic": 99, "diastolic": 66, "pulse": 70, "time": "2000-02-29T00:00:00"}]}"#,
        #"{"readings": []}"#,
    ])
    func edges(_ microlife: String) async throws {
        let text = ScenarioText.oneCuff(services: "[]", extra: #""vendor": "microlife", "microlife": \#(microlife)"#)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("microlife-parity-\(UUID().uuidString.prefix(8)).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await Self.compare(file)
    }

    /// cuff-sim's answer to each of ``writes()`` against the radio's, for the Microlife cuff of `file`.
    static func compare(_ file: URL) async throws {
        try #require(ExternalCommand.exists("python3"))
        let spec = try #require(try Scenario.parse(Data(contentsOf: file)).cuffs.compactMap(\.microlife).first)
        var cuff = MicrolifeCuff(spec)
        let writes = try writes()
        let expected = writes.map { write in
            let reaction = cuff.write(write)
            return reaction.notifications.map { $0.map { String(format: "%02x", $0) }.joined() }.joined(separator: ",")
                + " " + (reaction.disconnects ? "True" : "False")
        }
        let hex = writes.map { $0.map { String(format: "%02x", $0) }.joined() }
        let result = try await ExternalCommand.runDetached("python3", ["-c", radio, root.appendingPathComponent("Acceptance").path, file.path] + hex)
        #expect(result.status == 0, "\(result.standardError)")
        let played = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(played.count == expected.count)
        for (index, (radio, sim)) in zip(played, expected).enumerated() {
            #expect(radio == sim, "write \(index) (\(hex[index])): the radio answers \(radio), cuff-sim \(sim)")
        }
        #expect(expected.contains { $0.hasPrefix("4d3a") }, "cuff-sim answered nothing")
    }
}
