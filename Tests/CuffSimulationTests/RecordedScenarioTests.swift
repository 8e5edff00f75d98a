import CuffRecording
import CuffSimulation
import Foundation
import GATTHealth
import Testing

/// Scenario files with a cuff of the `recorded` kind (docs/cuff-sim.md, "Recorded cuffs"): what `cuffctl capture`
/// writes reads back as it was written, and a file edited by hand is validated like any scenario, the field named.
@Suite("Recorded cuffs: the format")
struct RecordedScenarioTests {
    /// A recording of every kind of step, descriptor and value, with 128-bit and 16-bit UUIDs.
    static let recording = RecordedCuff(
        uuids: [BluetoothUUID.expand(0x1810), "0000fe4a-0000-1000-8000-00805f9b34fb"],
        services: [
            RecordedService(uuid: BluetoothUUID.expand(0x1810), handle: 10, characteristics: [
                RecordedCharacteristic(
                    uuid: BluetoothUUID.expand(0x2A35), handle: 11, flags: ["indicate"],
                    descriptors: [RecordedDescriptor(uuid: BluetoothUUID.expand(0x2902), handle: 13, flags: ["read"])]),
                RecordedCharacteristic(
                    uuid: BluetoothUUID.expand(0x2A49), handle: 14, flags: ["read"], value: [0x27, 0x00],
                    descriptors: [RecordedDescriptor(uuid: BluetoothUUID.expand(0x2901), handle: 16, flags: ["read"], value: Array("Feature \"x\"".utf8))]),
                RecordedCharacteristic(uuid: BluetoothUUID.expand(0x2A52), handle: 17, flags: ["write", "indicate"]),
            ]),
            RecordedService(uuid: "0000fe4a-0000-1000-8000-00805f9b34fb", characteristics: [
                RecordedCharacteristic(uuid: "db5b55e0-aee7-11e1-965e-0002a5d5c51b", flags: ["read", "write-without-response"], readError: "org.bluez.Error.NotPermitted: Read not permitted"),
            ]),
        ],
        links: [
            RecordedLink(steps: [
                RecordedStep(after: 0.012, .value(uuid: BluetoothUUID.expand(0x2A35), bytes: [0x16, 0x76, 0x00], indication: true)),
                RecordedStep(after: 0.3, .write(uuid: BluetoothUUID.expand(0x2A52), bytes: [0x01, 0x01], command: false, refusal: nil)),
                RecordedStep(after: 0.31, .write(uuid: BluetoothUUID.expand(0x2A52), bytes: [0x01], command: false, refusal: "org.bluez.Error.Failed: Operation failed with ATT error: 0x81")),
                RecordedStep(after: 0.4, .write(uuid: "db5b55e0-aee7-11e1-965e-0002a5d5c51b", bytes: [0x08], command: true, refusal: nil)),
                RecordedStep(after: 0.5, .read(uuid: BluetoothUUID.expand(0x2A49), bytes: [0x27, 0x01])),
                RecordedStep(after: 1.5, .disconnect),
            ]),
            RecordedLink(after: 2.25, steps: [RecordedStep(after: 3, .value(uuid: BluetoothUUID.expand(0x2A52), bytes: [0x06, 0x00, 0x01, 0x01], indication: false))]),
        ],
        notes: ["the link dropped while cuffd walked the GATT database: 1 readable value(s) and 0 descriptor(s) were not read"])

    @Test func whatACaptureWritesReadsBackAsItWas() throws {
        let written = RecordedScenario(adapter: "00:1A:7D:DA:71:13", address: "C4:F3:12:53:F2:C9", name: "BP \"1\"", paired: true, cuff: Self.recording)
        let scenario = try Scenario.parse(Data(written.json.utf8))
        let cuff = try #require(scenario.cuffs.first)
        #expect(cuff.recorded == Self.recording)
        #expect(cuff.name == "BP \"1\"")
        #expect(cuff.pairing == .justWorks)
        #expect(cuff.advertisedUUIDs == Self.recording.uuids)
        #expect(scenario.adapter.address.description == "00:1A:7D:DA:71:13")
        // A step, a characteristic, a line each; 16-bit UUIDs short, as the shipped scenarios write them.
        #expect(written.json.contains(#"{"after": 0.012, "indicate": "2A35", "hex": "16 76 00"}"#))
        #expect(written.json.contains(#"{"uuid": "2A49", "handle": 14, "flags": ["read"], "hex": "27 00", "descriptors": [{"uuid": "2901""#))
        #expect(written.json.contains(#"{"after": 2.25, "steps": ["#))
    }

    @Test func aCuffNeverPairedReplaysWithoutPairing() throws {
        let written = RecordedScenario(adapter: "00:1A:7D:DA:71:13", address: "C4:F3:12:53:F2:C9", name: "", paired: false, cuff: Self.recording)
        #expect(try Scenario.parse(Data(written.json.utf8)).cuffs[0].pairing == PairingRequirement.none)
    }

    /// A recorded cuff with `recorded` spliced in as given.
    static func recorded(_ recorded: String, beside: String = "") -> String {
        """
        {"adapter": {"address": "00:1A:7D:DA:71:13"},
         "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "BP-1", \(beside)"recorded": \(recorded)}]}
        """
    }

    static let database = #"""
        "services": [{"uuid": "1810", "handle": 10, "characteristics": [
          {"uuid": "2A35", "handle": 11, "flags": ["indicate"]},
          {"uuid": "2A49", "handle": 14, "flags": ["read"], "hex": "2700"},
          {"uuid": "2A52", "handle": 17, "flags": ["write", "indicate"]}]}]
        """#

    static func withSteps(_ steps: String, secondLink: String = "") -> String {
        recorded(#"{"uuids": ["1810"], \#(database), "links": [{"steps": [\#(steps)]}\#(secondLink)]}"#)
    }

    @Test(arguments: [
        (recorded(#"{"uuids": [], "services": [], "links": []}"#, beside: #""services": ["1810"], "#),
         #"cuffs[0].services: a recorded cuff's services and conversation are in "recorded"; not beside it"#),
        (recorded(#"{"uuids": ["18 10"], "services": [], "links": []}"#),
         #"cuffs[0].recorded.uuids: "18 10" is not a UUID (2A35, or 128-bit like 0000fe4a-0000-1000-8000-00805f9b34fb)"#),
        (recorded(#"{"uuids": [], "services": [], "links": [], "comment": "x"}"#),
         "cuffs[0].recorded.comment: is not a field here; expected uuids, services, links, notes"),
        (recorded(#"{"uuids": [], "services": [{"uuid": "1810", "characteristics": [{"uuid": "2A35", "flags": ["sometimes"]}]}], "links": []}"#),
         #"cuffs[0].recorded.services[0].characteristics[0].flags: "sometimes" is not a flag of doc/gatt-api.txt"#),
        (recorded(#"{"uuids": [], "services": [{"uuid": "1810", "handle": 11, "characteristics": [{"uuid": "2A35", "handle": 11, "flags": []}]}], "links": []}"#),
         "cuffs[0].recorded.services[0].characteristics[0].handle: 11 is used twice"),
        (recorded(#"{"uuids": [], "services": [{"uuid": "1810", "handle": 0, "characteristics": []}], "links": []}"#),
         "cuffs[0].recorded.services[0].handle: an ATT handle is 1 to 65535"),
        (withSteps(#"{"after": 0.5, "notify": "2A37", "hex": "0648"}"#),
         "cuffs[0].recorded.links[0].steps[0]: 2A37 is not a characteristic of the recorded services"),
        (withSteps(#"{"after": 0.5, "notify": "2A49", "hex": "0648"}"#),
         "cuffs[0].recorded.links[0].steps[0]: 2A49 neither notifies nor indicates (its flags: read)"),
        (withSteps(#"{"after": 0.5, "write": "2A49", "hex": "01"}"#),
         #"cuffs[0].recorded.links[0].steps[0]: 2A49 takes no Write Request (its flags: read); a write it refused says so in "refused""#),
        (withSteps(#"{"after": 0.5, "write": "2A52", "hex": "01", "type": "reliable"}"#),
         #"cuffs[0].recorded.links[0].steps[0].type: "reliable" is not request or command"#),
        (withSteps(#"{"after": 0.5, "indicate": "2A35", "hex": "16", "refused": "no"}"#),
         "cuffs[0].recorded.links[0].steps[0].refused: only a write step has refused"),
        (withSteps(#"{"after": 0.5, "disconnect": true}, {"after": 0.6, "indicate": "2A35", "hex": "16"}"#),
         "cuffs[0].recorded.links[0].steps[0]: a disconnect ends its link: no step may follow it"),
        (withSteps(#"{"after": 0.5, "indicate": "2A35", "hex": "16"}, {"after": 0.4, "indicate": "2A35", "hex": "16"}"#),
         "cuffs[0].recorded.links[0].steps[1].after: 0.4 s comes before the previous step (0.5 s)"),
        (withSteps(#"{"after": 0.5, "indicate": "2A35", "read": "2A49", "hex": "16"}"#),
         "cuffs[0].recorded.links[0].steps[0]: a recorded step needs exactly one of notify, indicate, read, write, subscribe, disconnect"),
        (withSteps(#"{"after": 0.5, "subscribe": "2A49"}"#),
         "cuffs[0].recorded.links[0].steps[0]: 2A49 neither notifies nor indicates (its flags: read)"),
        (withSteps(#"{"after": 0.5, "subscribe": "2A35", "hex": "16"}"#),
         "cuffs[0].recorded.links[0].steps[0].hex: a subscribe step carries no value"),
        (withSteps(#"{"after": 0.5, "indicate": "2A35", "hex": "1"}"#),
         #"cuffs[0].recorded.links[0].steps[0].hex: "1" is not whole hex bytes"#),
        (withSteps(#"{"after": -1, "disconnect": true}"#), "cuffs[0].recorded.links[0].steps[0].after: must be a time ≥ 0 in seconds"),
        (withSteps("", secondLink: #", {"steps": [], "after": -2}"#), "cuffs[0].recorded.links[1].after: must be a time ≥ 0 in seconds"),
        (recorded(#"{"uuids": [], "services": [], "links": [{"after": 1, "steps": []}]}"#),
         "cuffs[0].recorded.links[0].after: the first link comes up when the host connects; only later links come after one"),
    ])
    func aFileEditedByHandIsValidated(_ json: String, _ message: String) {
        #expect {
            _ = try Scenario.parse(Data(json.utf8))
        } throws: { error in
            guard let error = error as? ScenarioError else { return false }
            return error.description.hasPrefix(message)
        }
    }

    @Test func aRecordedCuffTakesItsIdentityAndPairingBesideTheRecording() throws {
        let scenario = try Scenario.parse(Data(Self.withSteps(#"{"after": 0.5, "write": "2A52", "hex": "01 01"}"#).replacingOccurrences(
            of: #""name": "BP-1", "#, with: #""name": "BP-1", "pairing": "passkey:123456", "bonded": true, "#).utf8))
        #expect(scenario.cuffs[0].pairing == .passkey(123_456))
        #expect(scenario.cuffs[0].bonded)
        #expect(scenario.cuffs[0].characteristics.map(\.uuid) == [0x2A35, 0x2A49, 0x2A52].map(BluetoothUUID.expand))
    }
}
