import DBusTestSupport
import Foundation
import Testing

/// `cuff-sim replay`: a scenario into a store without Bluetooth, as docs/cuff-sim.md describes it.
@Suite("cuff-sim replay")
struct CuffSimReplayTests {
    static let executable = CuffSimExecutableTests.executable

    @Test func aReplayStoresAndLogsThenRecognizesTheSameReadings() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let scenario = CuffSimExecutableTests.repository.appendingPathComponent("scenarios/one-cuff.json").path
        let first = try await ExternalCommand.runDetached(Self.executable, ["replay", scenario, "--store", store])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.hasPrefix("2 readings stored, 1 already stored"))
        #expect(first.standardError.contains("Reading stored: 122/80 mmHg, pulse 72/min"))
        #expect(first.standardError.contains("MESSAGE_ID=4f1c2a9e7b3d4c61a8e05d2b9c7f3e10"))
        let second = try await ExternalCommand.runDetached(Self.executable, ["replay", scenario, "--store", store])
        #expect(second.standardOutput.hasPrefix("0 readings stored, 3 already stored"))
        let mode = try FileManager.default.attributesOfItem(atPath: store)[.posixPermissions] as? Int
        #expect(mode.map { $0 & 0o077 } == 0, "health data must not be readable by others")
    }

    @Test func aBadScenarioExits65NamingTheFieldAndAMissingOne66() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"adapter": {"address": "nope"}, "cuffs": []}"#.utf8).write(to: file)
        let invalid = try await ExternalCommand.runDetached(Self.executable, ["replay", file.path, "--store", "/nonexistent/unused.sqlite"])
        #expect(invalid.status == 65)
        #expect(invalid.standardError.contains("adapter.address"))
        let missing = try await ExternalCommand.runDetached(Self.executable, ["replay", "/nonexistent/scenario.json", "--store", "/nonexistent/unused.sqlite"])
        #expect(missing.status == 66)
        #expect(missing.standardError.hasPrefix("cuff-sim: cannot read /nonexistent/scenario.json"))
    }

    @Test func aRecordedCuffIsRefusedWithWhereItPlays() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(RecordedScenarioTests.withSteps(#"{"after": 0.5, "indicate": "2A35", "hex": "\#(ScenarioText.recordA)"}"#).utf8).write(to: file)
        let outcome = try await ExternalCommand.runDetached(Self.executable, ["replay", file.path, "--store", "/nonexistent/unused.sqlite"])
        #expect(outcome.status == 65)
        #expect(outcome.standardError.contains("cuffs[0] is a recorded cuff, which only plays to cuffd over a bus: cuff-sim --scenario"))
    }

    @Test func aStoreThatCannotBeOpenedExits74() async throws {
        let scenario = CuffSimExecutableTests.repository.appendingPathComponent("scenarios/one-cuff.json").path
        let outcome = try await ExternalCommand.runDetached(Self.executable, ["replay", scenario, "--store", "/nonexistent/directory/store.sqlite"])
        #expect(outcome.status == 74)
        #expect(outcome.standardError.hasPrefix("cuff-sim: /nonexistent/directory/store.sqlite: "))
    }
}
