import BlueZ
import CuffSimulation
import Foundation
import GATTHealth
import Testing

@Suite("Scenario files")
struct ScenarioTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenarios/one-cuff.json")

    @Test func theShippedExampleParses() throws {
        let scenario = try Scenario.parse(Data(contentsOf: Self.example))
        #expect(scenario.adapter.address == BluetoothAddress("00:1A:7D:DA:71:13"))
        let cuff = try #require(scenario.cuffs.first)
        #expect(cuff.services == [.bloodPressure, .deviceInformation])
        #expect(cuff.pairing == .justWorks)
        #expect(cuff.deviceInformation?.model == "SIM-1")
        #expect(cuff.storedRecords.count == 1)
        #expect(cuff.timeline.count == 7)
        #expect(cuff.timeline[5].action == .indicate(.bloodPressureMeasurement, HexValue(bytes: [
            0x1E, 0x7A, 0x00, 0x50, 0x00, 0x5D, 0x00, 0xEA, 0x07, 0x0B, 0x16, 0x0A, 0x1E, 0x00, 0x48, 0x00, 0x01, 0x00, 0x00,
        ])))
        #expect(cuff.timeline[6] == TimelineStep.disconnectStep(after: 6.5))
        #expect(scenario.expect?.readings.map(\.systolic) == [124, 122])
    }

    @Test func theIssueExampleParses() throws {
        let scenario = try Scenario.parse(Data("""
            {"adapter": {"address": "00:1A:7D:DA:71:13"},
             "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "BP-1", "services": ["1810", "180A"],
               "pairing": "passkey:123456", "feature": "0300", "storedRecords": [],
               "timeline": [{"after": 0.2, "notify": "2A36", "hex": "00 28 00 FF 07 FF 07"},
                            {"after": 3.0, "advertise": true}, {"after": 5.0, "restartBluez": true}]}]}
            """.utf8))
        #expect(scenario.cuffs[0].pairing == .passkey(123_456))
        #expect(scenario.cuffs[0].timeline.map(\.action).last == .restartBluez)
        #expect(scenario.adapter.name == "cuff-sim")
    }

    @Test(arguments: [
        (#"{"cuffs": []}"#, "adapter: is missing"),
        (#"{"adapter": {"address": "00:1A:7D"}, "cuffs": []}"#, "adapter.address: \"00:1A:7D\" is not an address like C4:F3:12:53:F2:C9"),
        (cuff(#""pairing": "passkey:12""#), "cuffs[0].pairing: a passkey is six digits"),
        (cuff(#""pairing": "sometimes""#), "cuffs[0].pairing: \"sometimes\" is not none, justWorks or passkey:NNNNNN"),
        (cuff(#""storedRecords": ["1E 8A"]"#), "cuffs[0].storedRecords[0]: Blood Pressure Measurement (0x2A35): 2 bytes, but its flags and layout need at least 19"),
        (cuff(#""storedRecords": ["1E 8"]"#), "cuffs[0].storedRecords[0]: \"1E 8\" is not whole hex bytes"),
        (cuff(#""timeline": [{"after": 1, "disconnect": true, "advertise": true}]"#),
         "cuffs[0].timeline[0]: a step needs exactly one of notify, indicate, disconnect, advertise, restartBluez"),
        (cuff(#""timeline": [{"after": 2, "advertise": true}, {"after": 1, "disconnect": true}]"#),
         "cuffs[0].timeline[1].after: 1.0 s comes before the previous step (2.0 s)"),
        (cuff(#""timeline": [{"after": 1, "notify": "2A37", "hex": "0048"}]"#),
         "cuffs[0].timeline[0]: 0x2A37 is in a service this cuff does not have"),
        (cuff(#""timeline": [{"after": "soon", "disconnect": true}]"#), "cuffs[0].timeline[0].after: should be a number"),
        (#"{"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "B", "services": ["1811"]}]}"#, "cuffs[0].services: \"1811\" is not a service cuff-sim emulates (1810, 180D, 180A, 1805, 180F)"),
        ("{", ""),
    ])
    func badFilesNameTheField(_ json: String, _ expected: String) {
        #expect {
            _ = try Scenario.parse(Data(json.utf8))
        } throws: { error in
            let message = (error as? ScenarioError)?.description ?? ""
            return expected.isEmpty ? message.contains("not valid JSON") : message == expected
        }
    }

    @Test func anAddressIsUsedOnce() {
        let json = #"{"adapter": {"address": "C4:F3:12:53:F2:C9"}, "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "A", "services": ["1810"]}]}"#
        #expect(throws: ScenarioError(path: "cuffs[0].address", message: "C4:F3:12:53:F2:C9 is used twice")) {
            try Scenario.parse(Data(json.utf8))
        }
    }

    @Test func bluetoothAddresses() {
        #expect(BluetoothAddress("c4:f3:12:53:f2:c9")?.description == "C4:F3:12:53:F2:C9")
        #expect(BluetoothAddress("C4:F3:12:53:F2:C9")?.objectPathElement == "dev_C4_F3_12_53_F2_C9")
        #expect(BluetoothAddress("C4:F3:12:53:F2") == nil)
        #expect(BluetoothAddress("C4:F3:12:53:F2:CZ") == nil)
        #expect(BluetoothAddress("C4F3:12:53:F2:C9:00") == nil)
    }
}

/// A one-cuff scenario with `field` added to the cuff.
private func cuff(_ field: String) -> String {
    #"{"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "BP-1", "services": ["1810"], "#
        + field + "}]}"
}

extension TimelineStep {
    static func disconnectStep(after: Double) -> TimelineStep {
        try! JSONDecoder().decode(TimelineStep.self, from: Data(#"{"after": \#(after), "disconnect": true}"#.utf8))
    }
}
