import DBus
import DBusTestSupport
import Foundation
import Testing

/// `cuff-sim` as a user runs it, answering a client written with a third-party library
/// (python dbus-fast, calling BlueZ in the order bleak does: Tests/Interop/bleak_style_client.py).
@Suite("cuff-sim executable")
struct CuffSimExecutableTests {
    static let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("cuff-sim").path
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let bleakStyleClient = repository.appendingPathComponent("Tests/Interop/bleak_style_client.py").path

    /// Starts cuff-sim on `bus` and waits until it owns org.bluez.
    static func start(_ scenario: String, on bus: PrivateBus) async throws -> ChildProcess {
        let file = bus.directory.appendingPathComponent("scenario.json")
        try scenario.write(to: file, atomically: true, encoding: .utf8)
        let log = bus.directory.appendingPathComponent("cuff-sim.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        let watcher = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        defer { watcher.close() }
        let owners = StreamRecorder(try await watcher.nameOwnerChanges(of: "org.bluez"))
        let child = try ChildProcess(
            executable, ["--scenario", file.path, "--bus", bus.address],
            standardOutput: .descriptor(output.fileDescriptor), standardError: .descriptor(output.fileDescriptor))
        do {
            _ = try await owners.next { $0.newOwner != nil }
        } catch {
            let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw TestFailure("cuff-sim did not take org.bluez (running: \(child.isRunning)): \(error); it printed: \(printed)")
        }
        return child
    }

    @Test("A bleak-style dbus-fast client discovers, connects, subscribes and receives the stored record and the scripted reading")
    func bleakStyleSession() async throws {
        try #require(ExternalCommand.exists("python3"))
        let bus = try PrivateBus()
        let scenario = ScenarioText.oneCuff(
            storedRecords: [ScenarioText.recordA],
            timeline: #"[{"after": 0.3, "indicate": "2A35", "hex": "\#(ScenarioText.recordB)"}]"#)
        let simulator = try await Self.start(scenario, on: bus)
        defer { simulator.terminate() }

        let output = try await ExternalCommand.runDetached("python3", [Self.bleakStyleClient, "--address", bus.address, "--count", "2", "--timeout", "\(Int(testDeadline / .seconds(1)))"])
        #expect(output.status == 0, "\(output.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        #expect(report["address"] as? String == "C4:F3:12:53:F2:C9")
        #expect(report["name"] as? String == "BP-1")
        #expect(report["manufacturer"] as? String == "cuffd project")
        #expect(report["values"] as? [String] == [ScenarioText.recordA.lowercased(), ScenarioText.recordB.lowercased()])
    }

    @Test("Unreadable and invalid scenarios, and a taken org.bluez, exit with distinct codes and one line naming the problem")
    func exitCodes() async throws {
        let missing = try await ExternalCommand.runDetached(Self.executable, ["--scenario", "/nonexistent/scenario.json"])
        #expect(missing.status == 66)
        #expect(missing.standardError.hasPrefix("cuff-sim: cannot read /nonexistent/scenario.json"))
        let directory = try await ExternalCommand.runDetached(Self.executable, ["--check", "/"])
        #expect(directory.status == 66)
        #expect(directory.standardError == "cuff-sim: cannot read /: it is a directory, not a scenario file\n")

        let bus = try PrivateBus()
        let invalid = bus.directory.appendingPathComponent("invalid.json")
        try ScenarioText.oneCuff(timeline: #"[{"after": 2, "advertise": true}, {"after": 1, "advertise": true}]"#)
            .write(to: invalid, atomically: true, encoding: .utf8)
        let refused = try await ExternalCommand.runDetached(Self.executable, ["--scenario", invalid.path, "--bus", bus.address])
        #expect(refused.status == 65)
        #expect(refused.standardError.contains("cuffs[0].timeline[1].after"))

        let first = try await Self.start(ScenarioText.oneCuff(), on: bus)
        defer { first.terminate() }
        let second = try await ExternalCommand.runDetached(
            Self.executable, ["--scenario", bus.directory.appendingPathComponent("scenario.json").path, "--bus", bus.address])
        #expect(second.status == 75)
        #expect(second.standardError.contains("org.bluez is already owned"))

        let nowhere = try await ExternalCommand.runDetached(
            Self.executable, ["--scenario", invalid.path.replacingOccurrences(of: "invalid", with: "scenario"), "--bus", "unix:path=/nonexistent/bus"])
        #expect(nowhere.status == 69)
    }

    @Test("--check validates a file without a bus: 0 and a line for a valid one, 65 naming the field for an invalid one")
    func check() async throws {
        let valid = try await ExternalCommand.runDetached(Self.executable, ["--check", Self.repository.appendingPathComponent("scenarios/one-cuff.json").path])
        #expect(valid.status == 0)
        #expect(valid.standardOutput.hasSuffix("one-cuff.json: valid, 1 cuff(s)\n"))

        let bus = try PrivateBus()
        let invalid = bus.directory.appendingPathComponent("invalid.json")
        try ScenarioText.oneCuff(extra: #""clock": {"start": "2021-01-01T00:00:00"}"#).write(to: invalid, atomically: true, encoding: .utf8)
        let refused = try await ExternalCommand.runDetached(Self.executable, ["--check", invalid.path])
        #expect(refused.status == 65)
        #expect(refused.standardError == "cuff-sim: \(invalid.path): cuffs[0].clock: needs service 1805\n")

        let both = try await ExternalCommand.runDetached(Self.executable, ["--check", invalid.path, "--scenario", invalid.path])
        #expect(both.status == 64)
        let neither = try await ExternalCommand.runDetached(Self.executable, [])
        #expect(neither.status == 64)
    }

    @Test("SIGTERM makes cuff-sim leave the bus and exit 0")
    func terminates() async throws {
        let bus = try PrivateBus()
        let simulator = try await Self.start(ScenarioText.oneCuff(), on: bus)
        kill(simulator.pid, SIGTERM)
        #expect(simulator.waitForExit(killingAfter: ExternalCommand.hangGuard) == 0)
    }
}
