import BlueZ
import CuffRecording
import CuffSimulation
import DBusTestSupport
import Foundation
import Gateway
import GatewayTestSupport
import GATTHealth
import Testing

/// What a capture replaces (docs/capture.md, "What is replaced"): a cuff with a System ID, a long serial number, its
/// address in its name and (least significant byte first) inside a vendor value — every one of them gone from the
/// file, while the replay still stores the same reading.
@Suite("Capture: redaction")
struct CaptureRedactionTests {
    static let serial = "SN-4711-0815-X"
    static let systemID: [UInt8] = [0x01, 0x23, 0x45, 0xFE, 0xFF, 0x67, 0x89, 0xAB]
    /// A cuff-pressure value no cuff should send: the address, least significant byte first, and the serial inside.
    static let odd: [UInt8] = [0xAA, 0xC9, 0xF2, 0x53, 0x12, 0xF3, 0xC4] + Array(serial.utf8) + [0x55]

    /// A cuff the way a capture records one, here written by hand: what it serves and what it sends on its one link.
    static let scenario = """
        {"adapter": {"address": "00:1A:7D:DA:71:13"},
         "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "BP C4F31253F2C9", "pairing": "justWorks", "recorded": {
           "uuids": ["1810", "180A"],
           "services": [
             {"uuid": "1810", "characteristics": [
               {"uuid": "2A35", "flags": ["indicate"]}, {"uuid": "2A36", "flags": ["notify"]}, {"uuid": "2A49", "flags": ["read"], "hex": "0000"}]},
             {"uuid": "180A", "characteristics": [
               {"uuid": "2A29", "flags": ["read"], "hex": "\(Hex.bytes(Array("cuffd project".utf8)))"},
               {"uuid": "2A25", "flags": ["read"], "hex": "\(Hex.bytes(Array(serial.utf8)))"},
               {"uuid": "2A23", "flags": ["read"], "hex": "\(Hex.bytes(systemID))"}]}],
           "links": [{"steps": [
             {"after": 0.5, "notify": "2A36", "hex": "\(Hex.bytes(odd))"},
             {"after": 0.6, "indicate": "2A35", "hex": "16 76 00 4C 00 5A 00 EA 07 0B 17 07 0F 00 42 00 00 00"}]}]}}],
         "expect": {"readings": [
           {"address": "C4:F3:12:53:F2:C9", "systolic": 118, "diastolic": 76, "pulseRate": 66, "userID": null, "deviceTime": "2026-11-23T07:15:00", "status": []}]}}
        """

    /// The text forms of what must not be in a capture: addresses (colons, dashes, none, either case, either byte
    /// order), the serial number (as text and as bytes), the System ID (either byte order).
    static var identifying: [String] {
        let addresses = ["C4:F3:12:53:F2:C9", "00:1A:7D:DA:71:13"].map { BluetoothAddress($0)! }.flatMap { address in
            [address.bytes, address.bytes.reversed()].flatMap { bytes in [":", "-", "", " "].map { Hex.bytes(bytes, separator: $0) } }
        }
        let bytes = [Array(serial.utf8), systemID, systemID.reversed()].flatMap { bytes in ["", " "].map { Hex.bytes(bytes, separator: $0) } }
        return (addresses + bytes + [serial]).flatMap { [$0, $0.lowercased()] }
    }

    @Test func noAddressSerialOrSystemIDIsLeftAndTheReplayStoresTheSameReading() async throws {
        try await withTeardown { teardown in
            let original = try await GatewayHarness(Data(Self.scenario.utf8))
            teardown.add { await original.stop() }
            let address = original.scenario.cuffs[0].address
            let capture = try await original.gateway.startCapture(address)
            try await original.pairAll()
            try await original.waitForExpectedReadings()
            // The Gateway hands every value to the capture before it handles it: once it has logged this one, the
            // capture holds it.
            try await original.next { event in
                switch event {
                case .packet(_, _, Self.odd), .session(_, .malformedValue(_, _, Self.odd)): true
                default: false
                }
            }
            await capture.walkEnded()
            let recording = try await original.gateway.finishCapture(capture, keepIdentity: false)
            await original.stop()

            for text in Self.identifying { #expect(!recording.json.contains(text), "the capture still holds \(text)") }
            let cuff = try #require(try Scenario.parse(Data(recording.json.utf8)).cuffs.first?.recorded)
            let serial = try #require(cuff.characteristic(BluetoothUUID.expand(0x2A25))?.value)
            #expect(serial.count == Self.serial.utf8.count && serial != Array(Self.serial.utf8), "a stand-in of the same shape")
            #expect(recording.name.hasPrefix("BP ") && recording.name.count == "BP C4F31253F2C9".count)
            #expect(cuff.characteristic(BluetoothUUID.expand(0x2A29))?.value == Array("cuffd project".utf8), "what names no one stays")
            let systemID = try #require(cuff.characteristic(BluetoothUUID.expand(0x2A23))?.value)
            #expect(systemID.count == 8 && systemID != Self.systemID)
            let odd = cuff.links.flatMap(\.steps).compactMap { step -> [UInt8]? in
                if case let .value(BluetoothUUID.expand(0x2A36), bytes, _) = step.action { bytes } else { nil }
            }
            #expect(odd.count == 1 && odd.first?.first == 0xAA && odd.first?.last == 0x55 && odd.first?.count == Self.odd.count && odd.first != Self.odd,
                    "the value is recorded, what identifies inside it replaced")

            let replay = try await GatewayHarness(CaptureReplay.scenario([recording], replaying: Data(Self.scenario.utf8)))
            teardown.add { await replay.stop() }
            try await replay.pairAll()
            try await replay.waitForExpectedReadings()
        }
    }

    @Test func keepIdentityKeepsThem() async throws {
        try await withTeardown { teardown in
            let original = try await GatewayHarness(Data(Self.scenario.utf8))
            teardown.add { await original.stop() }
            let capture = try await original.gateway.startCapture(original.scenario.cuffs[0].address)
            try await original.pairAll()
            try await original.waitForExpectedReadings()
            await capture.walkEnded()
            let recording = try await original.gateway.finishCapture(capture, keepIdentity: true)
            #expect(recording.address == "C4:F3:12:53:F2:C9")
            #expect(recording.name == "BP C4F31253F2C9")
            #expect(recording.json.contains(Hex.bytes(Array(Self.serial.utf8))))
            #expect(recording.json.contains(Hex.bytes(Self.systemID)))
        }
    }
}

/// What a capture records of a device cuffd does not collect from (a protocol it does not know), and what it says
/// when the link goes while it walks the GATT database; the requests it refuses.
@Suite("Capture: links, walks and refusals", .timeLimit(.minutes(1)))
struct CaptureWalkTests {
    static let address = BluetoothAddress("E0:11:22:33:44:55")!
    static let vendorService = "7e700001-b5a3-f393-e0a9-e50e24dcca9e"
    static let vendorValue = "7e700002-b5a3-f393-e0a9-e50e24dcca9e"

    /// A bonded device of a vendor's own protocol: nothing cuffd collects from, three readable values, one that notifies.
    static var device: EmbeddedPeripheral {
        var device = EmbeddedPeripheral(address, name: "Mystery BP", serviceUUIDs: [vendorService], characteristics: [
            .init("7e700003-b5a3-f393-e0a9-e50e24dcca9e", service: vendorService, ["read"], value: [1]),
            .init("7e700004-b5a3-f393-e0a9-e50e24dcca9e", service: vendorService, ["read"], value: [2]),
            .init("7e700005-b5a3-f393-e0a9-e50e24dcca9e", service: vendorService, ["read", "write"], value: [3]),
            .init(vendorValue, service: vendorService, ["notify"]),
        ], pairing: .none, bonded: true)
        device.descriptors = [.init("2901", of: vendorValue, ["read"], value: Array("pressure".utf8))]
        return device
    }

    @Test func aProtocolCuffdDoesNotKnowIsCapturedAllTheSame() async throws {
        let rig = try await EmbeddedGateway.start([Self.device])
        let capture = try await rig.gateway.startCapture(Self.address)
        await rig.central.linkUp(Self.address)
        await rig.settled()
        await capture.walkEnded()
        try await rig.central.writeValue([0x10], to: "7e700005-b5a3-f393-e0a9-e50e24dcca9e", of: DeviceID(adapter: rig.central.adapter.address, address: Self.address), type: .request)
        #expect(await rig.central.send(.init(Self.vendorValue, [0xAB, 0xCD]), from: Self.address), "the capture subscribed to it")
        await rig.central.linkDown(Self.address)
        await rig.settled()
        let recording = try await rig.gateway.finishCapture(capture, keepIdentity: true)
        await rig.stop()

        let cuff = recording.cuff
        #expect(cuff.notes.isEmpty)
        #expect(cuff.services.map(\.uuid) == [Self.vendorService])
        #expect(cuff.characteristics.map(\.value) == [[1], [2], [3], nil])
        #expect(cuff.characteristic(Self.vendorValue)?.descriptors.first?.value == Array("pressure".utf8))
        try #require(cuff.links.count == 1)
        #expect(cuff.links[0].steps.map(\.action) == [
            .write(uuid: "7e700005-b5a3-f393-e0a9-e50e24dcca9e", bytes: [0x10], command: false, refusal: nil),
            .value(uuid: Self.vendorValue, bytes: [0xAB, 0xCD], indication: false), .disconnect,
        ])
        #expect(recording.name == "Mystery BP" && recording.paired)
        _ = try Scenario.parse(Data(recording.json.utf8))
    }

    /// `device` on a Gateway, captured, its link lost after `reads` of the walk's reads.
    static func walkedUntilTheLinkWent(_ device: EmbeddedPeripheral = device, afterReads reads: Int = 1) async throws -> (EmbeddedGateway, CuffCapture) {
        let rig = try await EmbeddedGateway.start([device])
        await rig.central.dropLink(afterReads: reads, of: Self.address)
        let capture = try await rig.gateway.startCapture(Self.address)
        await rig.central.linkUp(Self.address)
        await rig.settled()
        await capture.walkEnded()
        await rig.settled()
        return (rig, capture)
    }

    @Test func aLinkLostMidWalkKeepsWhatWasReadAndSaysSo() async throws {
        let (rig, capture) = try await Self.walkedUntilTheLinkWent()
        let recording = try await rig.gateway.finishCapture(capture, keepIdentity: true)
        await rig.stop()

        #expect(recording.cuff.characteristics.map(\.value) == [[1], nil, nil, nil])
        #expect(recording.cuff.characteristics.allSatisfy { $0.readError == nil }, "a read the link took is no refusal")
        #expect(recording.cuff.notes == ["the link dropped while cuffd walked the GATT database: 2 readable value(s) and 1 descriptor(s) were not read"])
        let firstStep = try #require(recording.cuff.links.first?.steps.first)
        #expect(recording.cuff.links.map(\.steps) == [[RecordedStep(after: firstStep.after, .disconnect)]])
        #expect(try Scenario.parse(Data(recording.json.utf8)).cuffs[0].recorded?.notes == recording.cuff.notes)
    }

    @Test func theNextLinkReadsWhatTheLostOneDidNot() async throws {
        let (rig, capture) = try await Self.walkedUntilTheLinkWent()
        await rig.central.linkUp(Self.address)
        await rig.settled()
        await capture.walkEnded()
        let recording = try await rig.gateway.finishCapture(capture, keepIdentity: true)
        await rig.stop()

        #expect(recording.cuff.characteristics.map(\.value) == [[1], [2], [3], nil])
        #expect(recording.cuff.notes.isEmpty)
        try #require(recording.cuff.links.count == 2)
        #expect(recording.cuff.links[1].after != nil)
    }

    @Test func aDeviceNeverSeenIsUnknownAndOneThatNeverConnectsTimesOut() async throws {
        var asleep = Self.device
        asleep.bonded = false
        let rig = try await EmbeddedGateway.start([])
        await rig.central.add(asleep, exported: true)
        let unknown = try await rig.gateway.startCapture(BluetoothAddress("E0:11:22:33:44:66")!)
        await #expect(throws: GatewayError.self) { try await rig.gateway.finishCapture(unknown, keepIdentity: false) }
        let never = try await rig.gateway.startCapture(Self.address)
        do {
            _ = try await rig.gateway.finishCapture(never, keepIdentity: false)
            Issue.record("a capture without a link gave a recording")
        } catch {
            #expect(error.description == "waiting for E0:11:22:33:44:55 to connect for the capture timed out")
        }
        await rig.stop()
    }

    @Test func oneCaptureOfADeviceAtATime() async throws {
        let rig = try await EmbeddedGateway.start([Self.device])
        let first = try await rig.gateway.startCapture(Self.address)
        do {
            _ = try await rig.gateway.startCapture(Self.address)
            Issue.record("a second capture of the same device started")
        } catch {
            #expect(error.description == "a capture of E0:11:22:33:44:55 is already under way")
        }
        _ = try? await rig.gateway.finishCapture(first, keepIdentity: false)
        _ = try await rig.gateway.startCapture(Self.address)
        await rig.stop()
    }
}

/// A capture records cuffd's conversation without changing it (docs/capture.md, "What is recorded"): its walk of the
/// database waits until the pairing and the link's provisioning are over, so a cuff that ends the link soon after
/// (a download done, an Omron key programmed) meets the same requests, in the same order, as without a capture.
@Suite("Capture: the walk waits for cuffd's own conversation", .timeLimit(.minutes(1)))
struct CaptureWaitsForTheGatewayTests {
    /// The reads the Gateway made before its stored-record request (RACP, 0x2A52) on the pairing link of
    /// `racp-records.json`, and the reads made in all, with a capture running or not.
    static func reads(captured: Bool) async throws -> (beforeRequest: [String], all: Int) {
        let run = try await ScenarioRun.start("racp-records.json")
        let address = run.scenario.cuffs[0].address
        let capture = captured ? try await run.gateway.startCapture(address) : nil
        try await run.pairAll()
        await capture?.walkEnded()
        let (writes, reads) = (await run.central.writes, await run.central.reads)
        await run.rig.stop()
        let request = try #require(writes.firstIndex { $0.uuid == BluetoothUUID.expand(0x2A52) }, "the Gateway asked for the stored records")
        return (reads.filter { $0.writesBefore <= request }.map(\.uuid), reads.count)
    }

    @Test func theGatewayMakesTheSameRequestsBeforeTheWalkReadsAnything() async throws {
        let plain = try await Self.reads(captured: false)
        let captured = try await Self.reads(captured: true)
        #expect(captured.beforeRequest == plain.beforeRequest, "the walk read nothing before the Gateway's request")
        #expect(captured.all > plain.all, "the walk did read the database, afterwards")
    }
}
