import BlueZ
import CuffSimulation
import DBusTestSupport
import Foundation
import GATTHealth
import Testing

/// A scenario's `expect.readings[].status` (docs/cuff-sim.md) is checked alike on both stacks: the VM driver's
/// table (`Acceptance/acceptance/status_names.py`) names every status word as `BloodPressureMeasurementStatus.names`
/// does, and its comparison (`cuffctl_client.unmatched`) accepts and refuses the same stores as
/// `ScenarioExpectation.unmatched`.
@Suite("Status names: the VM driver's are cuff-sim's")
struct StatusNameParityTests {
    static let acceptance = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Acceptance").path

    /// Every combination of the defined bits 0–5, each RFU bit alone, and all sixteen.
    static let words: [UInt16] = Array(0 ..< 0x40) + (6 ..< 16).map { 1 << $0 } + [0xFFFF]

    @Test func everyWordIsNamedAlike() async throws {
        try #require(ExternalCommand.exists("python3"))
        let script = """
            import sys, json
            sys.path.insert(0, sys.argv[1])
            from acceptance import status_names
            print(json.dumps([status_names.names(w) for w in json.loads(sys.argv[2])] + [status_names.names(None)]))
            """
        let result = try await ExternalCommand.runDetached("python3", ["-c", script, Self.acceptance, "\(Self.words)"])
        #expect(result.status == 0, "\(result.standardError)")
        let python = try JSONDecoder().decode([[String]].self, from: Data(result.standardOutput.utf8))
        #expect(python == Self.words.map { BloodPressureMeasurementStatus(rawValue: $0).names } + [[]])
    }

    @Test func namesRoundTrip() {
        for word in Self.words {
            #expect(BloodPressureMeasurementStatus(names: BloodPressureMeasurementStatus(rawValue: word).names)?.rawValue == word)
        }
        #expect(BloodPressureMeasurementStatus(names: ["pulseRateExceedsUpperLimit", "pulseRateBelowLowerLimit"]) == nil)
        #expect(BloodPressureMeasurementStatus(names: ["bodyMovement", "bodyMovement"]) == nil)
        #expect(BloodPressureMeasurementStatus(names: ["irregularHeartbeat"]) == nil)
    }

    /// An expected reading, with the status names `status` (nil: not checked).
    static func expected(_ systolic: Int, _ status: [String]?) -> String {
        let names = status.map { #", "status": [\#($0.map { "\"\($0)\"" }.joined(separator: ", "))]"# } ?? ""
        return #"{"address": "C4:F3:12:53:F2:C9", "systolic": \#(systolic), "diastolic": 80, "pulseRate": 60, "userID": 1, "deviceTime": null\#(names)}"#
    }

    /// A stored reading as `cuffctl readings --json` lists it, its status word `status` (nil: the cuff sent none).
    static func stored(_ systolic: Int, _ status: UInt16?) -> String {
        #"{"device": {"address": "c4:f3:12:53:f2:c9"}, "systolic": \#(systolic), "diastolic": 80, "pulseRate": 60, "userID": 1, "deviceTime": null, "status": \#(status.map(String.init) ?? "null")}"#
    }

    /// Expected readings, stored readings, and whether they match.
    static let cases: [(expected: [String], stored: [String], matches: Bool)] = [
        ([expected(120, ["irregularPulse", "bodyMovement"])], [stored(120, 0x05)], true),
        ([expected(120, ["irregularPulse"])], [stored(120, 0x05)], false),
        ([expected(120, [])], [stored(120, 0x02)], false),
        ([expected(120, [])], [stored(120, nil)], true),
        ([expected(120, [])], [stored(120, 0x40)], false),
        ([expected(120, nil)], [stored(120, 0x22)], true),
        ([expected(120, ["pulseRateBelowLowerLimit"])], [stored(120, 0x18)], false),
        ([expected(120, ["cuffTooLoose"])], [stored(121, 0x02)], false),
        // Matched the other way round, the unchecked one would take the only reading with the flag.
        ([expected(120, nil), expected(120, ["cuffTooLoose"])], [stored(120, 0x02), stored(120, 0)], true),
        ([expected(120, nil), expected(120, ["cuffTooLoose"])], [stored(120, 0), stored(120, 0)], false),
        ([expected(120, [])], [stored(120, 0), stored(120, 0)], false),
    ]

    @Test func bothStacksMatchTheSameStores() async throws {
        try #require(ExternalCommand.exists("python3"))
        let script = """
            import sys, json
            sys.path.insert(0, sys.argv[1])
            from acceptance import cuffctl_client
            print(json.dumps([cuffctl_client.unmatched(e, s) == ([], []) for e, s in json.loads(sys.argv[2])]))
            """
        let document = "[" + Self.cases.map { "[[\($0.expected.joined(separator: ","))], [\($0.stored.joined(separator: ","))]]" }.joined(separator: ",") + "]"
        let result = try await ExternalCommand.runDetached("python3", ["-c", script, Self.acceptance, document])
        #expect(result.status == 0, "\(result.standardError)")
        let python = try JSONDecoder().decode([Bool].self, from: Data(result.standardOutput.utf8))
        let swift = try Self.cases.map { testCase in
            let expectation = try JSONDecoder().decode(ScenarioExpectation.self, from: Data(#"{"readings": [\#(testCase.expected.joined(separator: ","))]}"#.utf8))
            let (missing, unexpected) = expectation.unmatched(try testCase.stored.map(Self.observed))
            return missing.isEmpty && unexpected.isEmpty
        }
        #expect(swift == Self.cases.map(\.matches))
        #expect(python == Self.cases.map(\.matches))
    }

    /// A `cuffctl readings --json` entry as the Swift side sees it.
    static func observed(_ json: String) throws -> ExpectedReading {
        struct Listed: Decodable {
            struct Device: Decodable { let address: String }
            let device: Device, systolic: Double, diastolic: Double, pulseRate: Double?, userID: UInt8?, deviceTime: String?, status: UInt16?
        }
        let listed = try JSONDecoder().decode(Listed.self, from: Data(json.utf8))
        return ExpectedReading(
            stored: try #require(BluetoothAddress(listed.device.address)), systolic: listed.systolic, diastolic: listed.diastolic, pulseRate: listed.pulseRate,
            userID: listed.userID, deviceTime: listed.deviceTime, status: listed.status.map(BloodPressureMeasurementStatus.init(rawValue:)))
    }
}
