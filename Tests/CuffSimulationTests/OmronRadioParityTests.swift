@testable import CuffSimulation
import DBusTestSupport
import Foundation
import GATTHealth
import Testing

/// The VM's Bumble radio (`Acceptance/acceptance/omron.py`, docs/acceptance.md) and cuff-sim's `OmronCuff` hold the
/// same Omron memory for the same scenario — records, counters, clock block (docs/omron.md §4–§5) — before and after
/// its `measure` steps, for every model of `OmronModel.table`: both stacks play a scenario identically.
@Suite("The VM radio's Omron memory is cuff-sim's")
struct OmronRadioParityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let scenarios = root.appendingPathComponent("scenarios")

    /// Loads a scenario as the radio does (`scenario.load`) and prints, per Omron cuff, its memory in hex before and
    /// after the timeline's `measure` steps.
    static let radio = """
        import sys
        sys.path.insert(0, sys.argv[1])
        from acceptance import omron, scenario
        omron.emit = lambda *_, **__: None
        for cuff in scenario.load(sys.argv[2]).cuffs:
            if cuff.omron:
                memory = omron.OmronMemory(cuff.address, cuff.omron)
                before = memory.memory.hex()
                for step in cuff.timeline:
                    if step.action == 'measure':
                        memory.measure(step.user, step.record)
                print(before, memory.memory.hex())
        """

    static let shipped: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: scenarios.path)) ?? [])
        .filter { $0.hasPrefix("omron") && $0.hasSuffix(".json") }.sorted()

    /// A cuff of `model`: per user a ring wrapping from its second-to-last slot, its first record read, every flag
    /// and record bit set somewhere, the last year the layout holds, an erased slot, the clock where the model has
    /// one, and a `measure` per user.
    static func scenario(_ model: OmronModel) -> String {
        let erased = String(repeating: "FF", count: model.layout.size)
        let lastYear = if case .bigEndianPacked14(8, _) = model.layout { 2255 } else { 2063 }
        let records = """
            {"systolic": 120, "diastolic": 80, "pulse": 60, "time": "2026-01-02T03:04:05"},
            {"systolic": 131, "diastolic": 85, "pulse": 70, "time": "2031-12-31T23:59:58", "irregularHeartbeat": true, "cuffTooLoose": true},
            {"hex": "\(erased)"},
            {"systolic": 280, "diastolic": 90, "pulse": 75, "time": "\(lastYear)-06-15T12:30:45", "bodyMovement": true, "lowBattery": true, "position": 3},
            {"systolic": 25, "diastolic": 70, "pulse": 55, "time": "2000-02-29T00:00:00", "position": 1}
            """
        let users = (0 ..< model.users).map { _ in #"{"firstSlot": \#(model.slotsPerUser - 2), "read": 1, "records": [\#(records)]}"# }
        let measures = (1 ... model.users).map {
            #"{"after": 1, "user": \#($0), "measure": {"systolic": 150, "diastolic": 95, "pulse": 80, "time": "2027-07-07T07:07:07", "position": 2, "lowBattery": true}}"#
        }
        let vendor = model.stack == .classic ? "omron" : "omronModern"
        let clock = model.clock == nil ? "" : #""clock": "2024-02-29T13:14:15", "#
        return ScenarioText.oneCuff(timeline: "[\(measures.joined(separator: ","))]", services: "[]", extra: """
            "vendor": "\(vendor)", "omron": {"model": "\(model.name)", \(clock)"users": [\(users.joined(separator: ","))]}
            """)
    }

    @Test("every model cuff-sim has, with every record bit", arguments: OmronModel.table.map(\.name))
    func model(_ name: String) async throws {
        let model = try #require(OmronModel.table.first { $0.name == name })
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("omron-parity-\(name)-\(UUID().uuidString.prefix(8)).json")
        try Data(Self.scenario(model).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await Self.compare(file)
    }

    @Test("the shipped Omron scenarios", arguments: shipped)
    func shippedScenario(_ name: String) async throws {
        try await Self.compare(Self.scenarios.appendingPathComponent(name))
    }

    @Test func thereAreShippedScenarios() {
        #expect(Self.shipped.count >= 5)
    }

    /// cuff-sim's memory of each Omron cuff of `file`, before and after its `measure` steps, against the radio's.
    static func compare(_ file: URL) async throws {
        try #require(ExternalCommand.exists("python3"))
        let scenario = try Scenario.parse(Data(contentsOf: file))
        var expected: [[[UInt8]]] = []
        for cuff in scenario.cuffs {
            guard let spec = cuff.omron else { continue }
            var memory = OmronCuff(spec: spec)
            let before = memory.memory
            for case let .measure(user, slot) in cuff.timeline.map(\.action) {
                memory.measure(slot.bytes(spec.model.layout), user: user - 1)
            }
            expected.append([before, memory.memory])
        }
        let result = try await ExternalCommand.runDetached("python3", ["-c", radio, root.appendingPathComponent("Acceptance").path, file.path])
        #expect(result.status == 0, "\(result.standardError)")
        let played = try result.standardOutput.split(separator: "\n").map {
            try $0.split(separator: " ").map { try JSONDecoder().decode(HexValue.self, from: Data("\"\($0)\"".utf8)).bytes }
        }
        #expect(played.count == expected.count)
        for (radio, sim) in zip(played, expected) {
            for (stage, (bytes, simBytes)) in zip(["before", "after"], zip(radio, sim)) {
                let differing = simBytes.indices.filter { !bytes.indices.contains($0) || bytes[$0] != simBytes[$0] }
                #expect(bytes.count == simBytes.count, "\(stage): the radio's memory is \(bytes.count) bytes, cuff-sim's \(simBytes.count)")
                #expect(differing.isEmpty, "\(stage): differing at \(differing.prefix(16).map { "0x" + String($0, radix: 16) })")
            }
        }
    }
}
