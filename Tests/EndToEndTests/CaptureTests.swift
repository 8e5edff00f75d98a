import CuffSimulation
import DBus
import DBusTestSupport
import Foundation
import Testing

/// `cuffctl capture` as a user runs it (docs/capture.md): while cuffd pairs and collects from a cuff-sim cuff, the
/// capture records it into a file; cuff-sim plays that file to another cuffd, which stores the same readings; the
/// file names neither the cuff nor its owner; and what a capture refuses, it refuses with its exit code.
@Suite("cuffctl capture", .serialized)
struct CaptureTests {
    static let cuff = "C4:F3:12:53:F2:C9"

    /// The name `Stack.make(scenario:)` takes for the scenario file at `file`: its path from the scenarios folder, where
    /// the stack looks for scenarios.
    static func scenarioName(_ file: URL) -> String {
        String(repeating: "../", count: Stack.scenarios.standardizedFileURL.pathComponents.count - 1) + file.standardizedFileURL.path.dropFirst()
    }

    /// A reading's values, as the scenario's expectation names them.
    static func values(_ readings: [[String: Any]]) -> [String] {
        readings.map { reading in
            ["systolic", "diastolic", "pulseRate", "userID", "deviceTime", "status"].map { "\(reading[$0] ?? "-")" }.joined(separator: " ")
        }.sorted()
    }

    @Test("captured while paired and measuring, replayed by cuff-sim: the other cuffd stores the same readings; no address or serial in the file")
    func captureAndReplay() async throws {
        let stack = try await Stack.make(scenario: "one-cuff.json", manualStart: true)
        try await stack.startDaemon()
        let file = stack.directory.appendingPathComponent("capture.json")
        // Across both links — pairing, then START pressed once start is armed and the measurement after it —: the capture
        // ends when the cuff's second link does, however long the machine takes to get there.
        let capture = try stack.startCuffctl(["capture", Self.cuff, "--links", "2", "--output", file.path], log: "capture.log")
        let pair = try await stack.cuffctl(["pair", Self.cuff])
        #expect(pair.status == 0, "\(pair.error)")
        #expect(try await stack.measure(Self.cuff).status == 0)
        #expect(try await offCooperativePool { capture.waitForExit(killingAfter: ExternalCommand.hangGuard) } == 0, "\(stack.text("capture.log"))")
        let original = try await stack.readings()
        #expect(original.count == 2)

        let text = try String(contentsOf: file, encoding: .utf8)
        let bytes = [0xC4, 0xF3, 0x12, 0x53, 0xF2, 0xC9].map { String($0, radix: 16, uppercase: true) }
        for form in [Self.cuff, bytes.joined(), bytes.reversed().joined(separator: " "), "00:1A:7D:DA:71:13", "30 30 30 31"] {
            #expect(!text.contains(form) && !text.contains(form.lowercased()), "the capture holds \(form)")
        }
        let recorded = try Scenario.parse(Data(text.utf8))
        let address = recorded.cuffs[0].address.description
        #expect(address != Self.cuff)
        #expect(recorded.cuffs[0].recorded?.links.count == 2, "the pairing link and the measurement's")

        // With START pressed by the test: the recorded cuff comes back for its measuring link once `start` is armed, not
        // at the recorded gap, which a loaded machine's `pair` and journal could outlast (docs/cuff-sim.md).
        let replay = try await Stack.make(scenario: Self.scenarioName(file), manualStart: true)
        try await replay.startDaemon()
        let replayPair = try await replay.cuffctl(["pair", address])
        #expect(replayPair.status == 0, "\(replayPair.error)\n\(replay.text("cuff-sim.log"))")
        // The recorded pairing link sends the stored record at its recorded time, which may come after pair returned: once
        // it is stored (its journal entry, docs/journal.md), the new reading start waits for is the measurement.
        try await replay.journal.received.wait(for: "the replayed stored record in cuffd's journal") { _ in
            replay.journalEntries().contains { $0["MESSAGE_ID"] == "4f1c2a9e7b3d4c61a8e05d2b9c7f3e10" && $0["BP_OUTCOME"] == "stored" } ? () : nil
        }
        let start = try await replay.measure(address)
        #expect(start.status == 0, "\(start.error)\n\(replay.text("cuff-sim.log"))")
        let replayed = try await replay.readings()
        #expect(Self.values(replayed) == Self.values(original))
        #expect(replayed.allSatisfy { ($0["device"] as? [String: Any])?["address"] as? String == address })
    }

    /// An Omron cuff of a model cuffd cannot read, as a recording: it speaks only Omron's own service.
    static let unknownModel = """
        {"adapter": {"address": "00:1A:7D:DA:71:13"},
         "cuffs": [{"address": "28:FF:B2:10:99:99", "name": "BLESmart_00009999", "pairing": "justWorks", "recorded": {
           "uuids": ["ecbe3980-c9a2-11e1-b1bd-0002a5d5c51b"],
           "services": [{"uuid": "ecbe3980-c9a2-11e1-b1bd-0002a5d5c51b", "characteristics": [
             {"uuid": "b305b680-aee7-11e1-a730-0002a5d5c51b", "flags": ["write", "notify"]},
             {"uuid": "49123040-aee8-11e1-a74d-0002a5d5c51b", "flags": ["notify"]}]}],
           "links": [{"steps": [{"after": 0, "notify": "49123040-aee8-11e1-a74d-0002a5d5c51b", "hex": "0A 0B 0C"}]}]}}]}
        """

    @Test("a model cuffd cannot read is refused by name (exit 76), and captured all the same")
    func refusedModelIsCaptured() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cuffd-capture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("unknown-model.json")
        try Self.unknownModel.write(to: source, atomically: true, encoding: .utf8)
        let stack = try await Stack.make(scenario: Self.scenarioName(source))
        try await stack.startDaemon()
        let file = stack.directory.appendingPathComponent("capture.json")
        // Until the cuff's link ends (the default): the refused pairing removes the device, which ends it.
        let capture = try stack.startCuffctl(["capture", "28:FF:B2:10:99:99", "--output", file.path], log: "capture.log")
        let pair = try await stack.cuffctl(["pair", "28:FF:B2:10:99:99"])
        #expect(pair.status == 76)
        #expect(pair.error.contains("BLESmart_00009999 offers Omron's service ecbe3980, but cuffd knows its memory there only for"), "\(pair.error)")
        #expect(try await offCooperativePool { capture.waitForExit(killingAfter: ExternalCommand.hangGuard) } == 0, "\(stack.text("capture.log"))")
        let recorded = try #require(try Scenario.parse(Data(contentsOf: file)).cuffs.first?.recorded)
        #expect(recorded.services.map(\.uuid) == ["ecbe3980-c9a2-11e1-b1bd-0002a5d5c51b"])
        let sent = recorded.links.first?.steps.first { if case .value = $0.action { true } else { false } }
        #expect(sent?.action == .value(uuid: "49123040-aee8-11e1-a74d-0002a5d5c51b", bytes: [0x0A, 0x0B, 0x0C], indication: false))
    }

    @Test("refused: a cuff never seen (68), seen but never connected (75, also when --links waits), --seconds past an hour or --links outside 1–100 (64; InvalidArguments on the bus, InvalidArgs for the shape before links), an unwritable --output (73), a caller who is no administrator (77)")
    func refusals() async throws {
        let stack = try await Stack.make(scenario: "one-cuff.json")
        try await stack.startDaemon()
        let unknown = try await stack.cuffctl(["capture", "C4:F3:12:53:F2:00", "--seconds", "1"])
        #expect(unknown.status == 68, "\(unknown.error)")
        #expect(try await stack.cuffctl(["scan", "--until", Self.cuff, "--timeout", "60"]).status == 0)
        let asleep = try await stack.cuffctl(["capture", Self.cuff, "--seconds", "1"])
        #expect(asleep.status == 75, "\(asleep.error)")
        #expect(asleep.error.contains("waiting for \(Self.cuff) to connect for the capture timed out"))
        #expect(try await stack.cuffctl(["capture", Self.cuff, "--seconds", "3601"]).status == 64)
        #expect(try await stack.cuffctl(["capture", Self.cuff, "--links", "0"]).status == 64)
        let tooMany = try await stack.cuffctl(["capture", Self.cuff, "--links", "101"])
        #expect(tooMany.status == 64 && tooMany.error.contains("--links is from 1 to 100"), "\(tooMany.error)")
        // --seconds bounds a capture that waits for links: the link never comes, the second ends it.
        let linksBounded = try await stack.cuffctl(["capture", Self.cuff, "--links", "2", "--seconds", "1"])
        #expect(linksBounded.status == 75, "\(linksBounded.error)")
        // cuffd checks the count itself, and refuses the method's shape before `links`, (sdb), by its signature.
        let connection = try DBusConnection.open(.address(stack.bus.address), label: "test", callTimeout: testDeadline)
        defer { connection.close() }
        let manyLinks = await HostileArgumentTests.errorName(connection, "Capture", [.string(Self.cuff), .double(0), .uint32(101), .boolean(false)])
        #expect(manyLinks == "org.cuffd.Error.InvalidArguments")
        let oldShape = await HostileArgumentTests.errorName(connection, "Capture", [.string(Self.cuff), .double(0), .boolean(false)])
        #expect(oldShape == "org.freedesktop.DBus.Error.InvalidArgs")
        let unwritable = try await stack.cuffctl(["capture", Self.cuff, "--seconds", "1", "--output", stack.directory.appendingPathComponent("missing/capture.json").path])
        #expect(unwritable.status == 73, "\(unwritable.error)")
        if getuid() == 0 {
            let outsider = try await stack.cuffctl(["capture", Self.cuff, "--seconds", "1"], as: (uid: 65534, gid: 65534, groups: []))
            #expect(outsider.status == 77, "\(outsider.error)")
        }
    }
}
