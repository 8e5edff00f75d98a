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
        try #require(cuff.timeline.count == 8)
        #expect(cuff.timeline[0].action == .pressStart)
        #expect(cuff.timeline[6].action == .indicate(.bloodPressureMeasurement, HexValue(bytes: [
            0x1E, 0x7A, 0x00, 0x50, 0x00, 0x5D, 0x00, 0xEA, 0x07, 0x0B, 0x16, 0x0A, 0x1E, 0x00, 0x48, 0x00, 0x01, 0x00, 0x00,
        ])))
        #expect(cuff.timeline[7] == TimelineStep.disconnectStep(after: 6.5))
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
         "cuffs[0].timeline[0]: a step needs exactly one of notify, indicate, disconnect, advertise, restartBluez, measure, pressStart"),
        (cuff(#""timeline": [{"after": 2, "advertise": true}, {"after": 1, "disconnect": true}]"#),
         "cuffs[0].timeline[1].after: 1.0 s comes before the previous step (2.0 s)"),
        (cuff(#""timeline": [{"after": 1, "notify": "2A37", "hex": "0048"}]"#),
         "cuffs[0].timeline[0]: 0x2A37 is not a characteristic this cuff has"),
        (cuff(#""timeline": [{"after": "soon", "disconnect": true}]"#), "cuffs[0].timeline[0].after: should be a number"),
        (#"{"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "B", "services": ["1811"]}]}"#, "cuffs[0].services: \"1811\" is not a service cuff-sim emulates (1810, 180D, 180A, 1805, 180F)"),
        ("{", ""),
        (cuff(#""records": [{"sequence": 1, "hex": "46 80 00"}]"#),
         "cuffs[0].records[0].hex: Enhanced Blood Pressure Measurement (0x2B34): 3 bytes, but its flags and layout need at least 13"),
        (cuff(#""records": [{"sequence": 1, "hex": "\#(ScenarioText.enhancedA)"}, {"sequence": 1, "hex": "\#(ScenarioText.enhancedB)"}]"#),
         "cuffs[0].records[1].sequence: 1 is used twice"),
        (cuff(#""records": [{"sequence": 70000, "hex": "\#(ScenarioText.enhancedA)"}]"#), "cuffs[0].records[0].sequence: must be a whole number from 0 to 65535, not 70000"),
        (cuff(#""records": [{"sequence": 1.5, "hex": "\#(ScenarioText.enhancedA)"}]"#), "cuffs[0].records[0].sequence: must be a whole number from 0 to 65535, not 1.5"),
        (cuff(#""recordSegmentSize": 1e30"#), "cuffs[0].recordSegmentSize: must be a whole number from \(Int.min) to \(Int.max), not 1000000000000000000000000000000"),
        (cuff(#""bogus": 1"#), "cuffs[0].bogus: is not a field here; expected address, name, manufacturerID, services, pairing, bonded, deviceInformation, feature, storedRecords, timeline, records, recordSegmentSize, clock, vendor, onStart, omron, aAndD, microlife, switchesOffOnRecordRequest, recorded, forgetsBondAfterLink"),
        (cuff(#""timeline": [{"after": 1, "disconnect": true, "user": 3}]"#),
         "cuffs[0].timeline[0].user: only a measure step names a user"),
        (cuff(#""deviceInformation": {"serial": "1", "colour": "red"}"#), "cuffs[0].deviceInformation.colour: is not a field here; expected manufacturer, model, serial, firmware"),
        (#"{"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": [], "expect": {"readings": [{"address": "00:1A:7D:DA:71:14", "systolic": 1, "diastolic": 1, "userID": 300}]}}"#,
         "expect.readings[0].userID: must be a whole number from 0 to 255, not 300"),
        (#"{"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": [], "expect": {"readings": [{"address": "00:1A:7D:DA:71:14", "systolic": 1, "diastolic": 1, "status": ["bodyMovement", "irregularHeartbeat"]}]}}"#,
         "expect.readings[0].status: \"irregularHeartbeat\" is not a status name; expected \(BloodPressureMeasurementStatus.nameTable.map(\.name).joined(separator: ", "))"),
        (#"{"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": [], "expect": {"readings": [{"address": "00:1A:7D:DA:71:14", "systolic": 1, "diastolic": 1, "status": ["pulseRateExceedsUpperLimit", "pulseRateBelowLowerLimit"]}]}}"#,
         "expect.readings[0].status: [\"pulseRateExceedsUpperLimit\", \"pulseRateBelowLowerLimit\"] cannot all be set at once (one Pulse Rate Range, each name once)"),
        (#"{"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": [], "extra": 1}"#, "extra: is not a field here; expected adapter, cuffs, expect"),
        (String(repeating: "[", count: 600) + String(repeating: "]", count: 600), "not valid JSON: Too many nested arrays or dictionaries around character 513."),
        (#"{"adapter": {"address": "00:1A:7D:DA:71:13", "temporaryTimeout": 1e400}, "cuffs": []}"#, "not valid JSON: Number 1e400 is not representable in Swift."),
        (cuff(#""records": [{"sequence": 2, "hex": "66 79 00 4F 00 5D 00 64 96 96 32 40 00 74 A4 96 32"}]"#),
         "cuffs[0].records[0].hex: carries a User Facing Time, but feature bit 8 (User Facing Time) is clear"),
        (cuff(#""recordSegmentSize": 8"#), "cuffs[0].recordSegmentSize: needs records"),
        (cuff(#""forgetsBondAfterLink": true"#), "cuffs[0].forgetsBondAfterLink: needs a cuff that pairs (\"pairing\": \"justWorks\" or a passkey)"),
        (cuff(#""records": [], "recordSegmentSize": 5"#), "cuffs[0].recordSegmentSize: must be 6 to 244 bytes"),
        (cuff(#""timeline": [{"after": 1, "indicate": "2B36", "hex": "03 01 00 34 2B"}]"#),
         "cuffs[0].timeline[0]: 0x2B36 is not a characteristic this cuff has"),
        (cuff(#""clock": {"start": "2021-01-01T00:00:00"}"#), "cuffs[0].clock: needs service 1805"),
        (#"{"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "B", "services": ["1810", "1805"], "clock": {"start": "2021-02-30T00:00:00"}}]}"#,
         "cuffs[0].clock.start: \"2021-02-30T00:00:00\" is not a calendar time like 2021-01-01T00:00:00"),
        (#"{"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "B", "services": ["180D"], "vendor": "qardioArm"}]}"#,
         "cuffs[0].vendor: needs service 1810"),
        (cuff(#""onStart": [{"after": 1, "disconnect": true}]"#),
         "cuffs[0].onStart: needs a vendor protocol that can start a measurement (\"vendor\": \"qardioArm\")"),
        (cuff(#""vendor": "qardioArm", "onStart": [{"after": 1, "pressStart": true}]"#),
         "cuffs[0].onStart[0]: the start command began this script: START is pressed in a timeline"),
        (cuff(#""timeline": [{"after": 1, "pressStart": false}]"#), "cuffs[0].timeline[0].pressStart: must be true"),
        (cuff(#""timeline": [{"after": 1, "pressStart": true, "user": 1}]"#), "cuffs[0].timeline[0].user: only a measure step names a user"),
        (cuff(#""vendor": "qardioArm", "onStart": [{"after": 2, "advertise": true}, {"after": 1, "disconnect": true}]"#),
         "cuffs[0].onStart[1].after: 1.0 s comes before the previous step (2.0 s)"),
        (cuff(#""vendor": "omron""#), "cuffs[0].vendor: \"vendor\": \"omron\" or \"omronModern\" and an \"omron\" object go together"),
        (cuff(#""omron": {"model": "HEM-7322T"}"#), "cuffs[0].omron: \"vendor\": \"omron\" or \"omronModern\" and an \"omron\" object go together"),
        (cuff(#""vendor": "omronModern", "omron": {"model": "HEM-7322T"}"#), "cuffs[0].omron.model: HEM-7322T does not speak Omron's service 0xFE4A (docs/omron.md §4)"),
        (cuff(#""vendor": "omron", "omron": {"model": "HEM-7142T2"}"#), "cuffs[0].omron.model: HEM-7142T2 does not speak Omron's service ecbe3980 (docs/omron.md §4)"),
        (cuff(#""vendor": "omronModern", "omron": {"model": "HEM-7146T2", "refusesToken": true}"#),
         "cuffs[0].omron.refusesToken: HEM-7146T2 has no token unlock (docs/omron.md §2)"),
        (cuff(#""vendor": "omron", "omron": {"model": "HEM-9999T"}"#),
         "cuffs[0].omron.model: \"HEM-9999T\" is not a model of docs/omron.md §4 (HEM-7150T, HEM-7151T, HEM-7155T, HEM-7342T, HEM-7343T, HEM-7361T, HEM-7320T, HEM-7322T, HEM-7280T, HEM-7281T, HEM-7282T, HEM-7321T, HEM-7600T, HEM-6232T, HEM-7530T, HEM-6161T, HEM-7142T2, HEM-716BT2, HEM-7146T2, HEM-7188T1, HEM-7183T1)"),
        (cuff(#""vendor": "omron", "omron": {"model": "HEM-7600T", "users": [{}, {}]}"#), "cuffs[0].omron.users: HEM-7600T has 1 user(s), not 2"),
        (cuff(#""vendor": "omron", "omron": {"model": "HEM-7155T", "users": [{"firstSlot": 60}]}"#), "cuffs[0].omron.users[0].firstSlot: must be a slot from 0 to 59"),
        (cuff(#""vendor": "omron", "omron": {"model": "HEM-7155T", "users": [{"read": 1}]}"#), "cuffs[0].omron.users[0].read: must be 0 to the number of records (0)"),
        (cuff(#""vendor": "omron", "omron": {"model": "HEM-7155T", "users": [{"records": [{"hex": "FFFF"}]}]}"#), "cuffs[0].omron.users[0].records[0].hex: a slot is 16 bytes, not 2"),
        (cuff(#""vendor": "omron", "omron": {"model": "HEM-7155T", "users": [{"records": [{"systolic": 300, "diastolic": 80, "pulse": 60, "time": "2024-01-01T00:00:00"}]}]}"#),
         "cuffs[0].omron.users[0].records[0].systolic: must be 25 to 280 mmHg (stored as systolic − 25 in a byte)"),
        (cuff(#""vendor": "omron", "omron": {"model": "HEM-6232T", "users": [{"records": [{"systolic": 120, "diastolic": 80, "pulse": 60, "time": "2070-01-01T00:00:00"}]}]}"#),
         "cuffs[0].omron.users[0].records[0].time: the year must be 2000 to 2063"),
        (cuff(#""vendor": "omron", "omron": {"model": "HEM-7342T", "clock": "2024-01-01T00:00:00"}"#),
         "cuffs[0].omron.clock: the clock of HEM-7342T is not known (docs/omron.md §4a)"),
        (cuff(#""timeline": [{"after": 1, "measure": {"systolic": 120, "diastolic": 80, "pulse": 60, "time": "2024-01-01T00:00:00"}}]"#),
         "cuffs[0].timeline[0].measure: needs \"vendor\": \"omron\" or \"omronModern\""),
        (cuff(#""vendor": "omron", "omron": {"model": "HEM-7600T"}, "timeline": [{"after": 1, "user": 2, "measure": {"systolic": 120, "diastolic": 80, "pulse": 60, "time": "2024-01-01T00:00:00"}}]"#),
         "cuffs[0].timeline[0].user: HEM-7600T has users 1 to 1"),
    ])
    func badFilesNameTheField(_ json: String, _ expected: String) {
        #expect {
            _ = try Scenario.parse(Data(json.utf8))
        } throws: { error in
            let message = (error as? ScenarioError)?.description ?? ""
            return expected.isEmpty ? message.contains("not valid JSON") : message == expected
        }
    }

    @Test func theNewCuffFieldsParse() throws {
        let scenario = try Scenario.parse(Data(ScenarioText.oneCuff(
            services: #"["1810", "1805"]"#, feature: "4001",
            extra: #""records": [{"sequence": 9, "hex": "\#(ScenarioText.enhancedA)"}], "recordSegmentSize": 12, "clock": {"start": "2021-01-01T00:00:00", "writable": false}, "vendor": "qardioArm", "onStart": [{"after": 0.5, "indicate": "2A35", "hex": "\#(ScenarioText.recordA)"}]"#).utf8))
        let cuff = try #require(scenario.cuffs.first)
        #expect(cuff.records == [RecordSpec(sequence: 9, value: HexValue(bytes: spaced(ScenarioText.enhancedA)))])
        #expect(cuff.recordSegmentSize == 12)
        #expect(cuff.clock?.start == DateTime(year: 2021, month: 1, day: 1, hours: 0, minutes: 0, seconds: 0))
        #expect(cuff.clock?.writable == false)
        #expect(cuff.vendor == .qardioArm)
        #expect(cuff.onStart.map(\.after) == [0.5])
        let plain = try Scenario.parse(Data(ScenarioText.oneCuff().utf8)).cuffs[0]
        #expect(plain.records == nil && plain.clock == nil && plain.vendor == nil && plain.onStart.isEmpty)
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
