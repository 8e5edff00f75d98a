import Foundation
import Testing

/// `cuffctl scan` over cuffd and cuff-sim: each cuff in radio range with what cuffd recognises it as and its verdict,
/// before anyone pairs (docs/compatibility.md, docs/cuffctl.md).
@Suite("cuffctl scan recognises models", .serialized)
struct ScanRecognitionTests {
    /// omron-two-users.json's cuff.
    static let omron = "28:FF:B2:10:4C:31"

    @Test("An Omron cuff is named by its model and its quirk; --json carries the verdict as word and reason")
    func omronModel() async throws {
        let stack = try await Stack.make(scenario: "omron-two-users.json")
        try await stack.startDaemon()
        let scan = try await stack.cuffctl(["scan", "--until", Self.omron, "--timeout", "60"])
        #expect(scan.status == 0, "\(scan.error)")
        let lines = scan.output.split(separator: "\n").map(String.init)
        let device = try #require(lines.firstIndex(of: "\(Self.omron) HEM-7361T"), "\(scan.output)")
        #expect(lines[device + 1].hasPrefix("  Omron HEM-7361T: supported, with quirk: pair it while \"P\" blinks"), "\(scan.output)")

        let json = try await stack.cuffctl(["scan", "--until", Self.omron, "--timeout", "60", "--json"])
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let cuff = try #require(seen.first { $0["address"] as? String == Self.omron })
        #expect(cuff["model"] as? String == "Omron HEM-7361T")
        #expect(cuff["support"] as? String == "quirk")
        #expect((cuff["reason"] as? String)?.contains("only new records are read") == true)
        #expect(try await stack.stopDaemon() == 0)
    }
}

extension ScanRecognitionTests {
    @Test("A Medisana cuff is named by the company in its manufacturer data; an A&D UA-1200BLE by its name, with the cooperation mode its advertisement shows")
    func otherMakers() async throws {
        for (scenario, address, line) in [
            ("medisana-bu5xx.json", "E8:4E:06:57:05:70", "  Medisana BU 5xx: supported, with quirk: it re-sends its whole history"),
            ("and-ua1200ble.json", "5C:31:3E:12:00:02",
             "  A&D UA-1200BLE (in cooperation mode: it holds no reading it has not sent): supported, with quirk: its clock"),
        ] {
            let stack = try await Stack.make(scenario: scenario)
            try await stack.startDaemon()
            let scan = try await stack.cuffctl(["scan", "--until", address, "--timeout", "60"])
            #expect(scan.status == 0, "\(scan.error)")
            let lines = scan.output.split(separator: "\n").map(String.init)
            let device = try #require(lines.firstIndex { $0.hasPrefix(address + " ") }, "\(scan.output)")
            #expect(lines[device + 1].hasPrefix(line), "\(scan.output)")
            #expect(try await stack.stopDaemon() == 0)
        }
    }
}
