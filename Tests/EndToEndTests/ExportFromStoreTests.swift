import DBusTestSupport
import Foundation
import Testing

/// `cuffctl export --store FILE` (docs/export.md): a store file read directly, read-only, without cuffd.
@Suite("cuffctl export --store")
struct ExportFromStoreTests {
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
        let result = try await ExternalCommand.runDetached(Stack.binaries.appendingPathComponent("cuffctl").path, arguments)
        return (result.status, result.standardOutput, result.standardError)
    }

    @Test("Every reading of a store file, with no cuffd running, and the file left exactly as it was")
    func readsTheFileOnly() async throws {
        let stack = try await Stack.make(scenario: "passkey.json")
        let scenario = try HostileArgumentTests.manyRecords(1100, in: stack.directory)
        #expect(try await HostileArgumentTests.replay(scenario, into: stack) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: stack.storePath))
        let modified = try FileManager.default.attributesOfItem(atPath: stack.storePath)[.modificationDate] as? Date

        let csv = try await Self.run(["export", "--format", "csv", "--store", stack.storePath])
        #expect(csv.status == 0, "\(csv.error)")
        #expect(csv.output.split(separator: "\r\n").count == 1101, "a header and one row per reading")
        #expect(try Data(contentsOf: URL(fileURLWithPath: stack.storePath)) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: stack.storePath)[.modificationDate] as? Date == modified)
        #expect(!FileManager.default.fileExists(atPath: stack.storePath + "-wal"))

        let foreign = stack.directory.appendingPathComponent("notes.sqlite")
        try Data("not a store at all, just text".utf8).write(to: foreign)
        let refused = try await Self.run(["export", "--format", "csv", "--store", foreign.path])
        #expect(refused.status == 65)
        #expect(refused.error.contains("notes.sqlite") && refused.error.contains("not a cuffd store"), "\(refused.error)")
        #expect(try String(contentsOf: foreign, encoding: .utf8) == "not a store at all, just text")
    }
}
