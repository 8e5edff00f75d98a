import DBusTestSupport
import Foundation
import Testing

/// `cuffctl export` against a real cuffd (docs/export.md), each format read back by an implementation that is not
/// cuffctl's (`Tests/Interop/export_check.py`: Python's csv module, the fhir.resources R4B models, jsonschema with
/// the Open mHealth schema rules) and compared with `cuffctl readings --json`.
@Suite("cuffctl export", .serialized)
struct ExportTests {
    /// A person's name that is a formula, with a comma and quotes: CSV must quote it and defuse it.
    static let person = "=1+2, \"Dr\" Alice"
    static let checker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/export_check.py").path

    /// cuffd with 1 100 replayed readings (statuses 0–63, no person, SIM-MANY) and the 4 of stored-records.json's cuff
    /// (SIM-HISTORY at the same address, mapped to ``person``): more than one page of `Readings`.
    static func stack() async throws -> Stack {
        let stack = try await Stack.make(scenario: "stored-records.json", configuration: "[Cuff E8:2A:44:10:3C:5D]\nNoUser=\(person)\n", manualStart: true)
        let scenario = try HostileArgumentTests.manyRecords(1100, in: stack.directory) { UInt8($0 % 64) }
        #expect(try await HostileArgumentTests.replay(scenario, into: stack) == 0)
        try await stack.startDaemon()
        #expect(try await stack.cuffctl(["pair", "E8:2A:44:10:3C:5D"]).status == 0)
        // The cuff measures once more, when START is pressed: wait for it, so that every export sees the same store.
        #expect(try await stack.measure("E8:2A:44:10:3C:5D").status == 0)
        return stack
    }

    /// Writes `readings --json ARGUMENTS` beside the exports, for the checker.
    static func readings(_ stack: Stack, _ arguments: [String] = [], person: String? = nil) async throws -> (path: String, count: Int) {
        let outcome = try await stack.cuffctl(["readings", "--json"] + arguments)
        #expect(outcome.status == 0, "\(outcome.error)")
        var readings = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [[String: Any]])
        if let person { readings = readings.filter { $0["person"] as? String == person } }
        let path = stack.directory.appendingPathComponent("readings-\(UUID().uuidString).json").path
        try JSONSerialization.data(withJSONObject: readings).write(to: URL(fileURLWithPath: path))
        return (path, readings.count)
    }

    static func check(_ kind: String, _ export: String, against readings: (path: String, count: Int)) async throws {
        let result = try await ExternalCommand.runDetached("python3", [checker, kind, export, readings.path], timeout: 300)
        #expect(result.status == 0 && result.standardOutput == "ok \(readings.count)\n", "\(kind): \(result.standardOutput)\(result.standardError)")
    }

    @Test("Every format of every reading, read back by independent readers; files 0600, re-exports identical, nothing left over")
    func formats() async throws {
        try #require(ExternalCommand.exists("python3"))
        let stack = try await Self.stack()
        let readings = try await Self.readings(stack)
        #expect(readings.count == 1104)
        let folder = stack.directory.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        for (kind, arguments) in [
            ("csv", ["--format", "csv"]), ("fhir", ["--format", "fhir"]), ("fhir-transaction", ["--format", "fhir", "--fhir-bundle", "transaction"]),
            ("omh", ["--format", "omh"]), ("omh-ndjson", ["--format", "omh", "--ndjson"]),
        ] {
            let path = folder.appendingPathComponent(kind).path
            let outcome = try await stack.cuffctl(["export", "--output", path] + arguments)
            #expect(outcome.status == 0 && outcome.output.isEmpty, "\(kind): \(outcome.error)")
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(kind)")
            try await Self.check(kind, path, against: readings)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["csv", "fhir", "fhir-transaction", "omh", "omh-ndjson"])
        let again = try await stack.cuffctl(["export", "--format", "fhir"])
        #expect(again.output == (try String(contentsOfFile: folder.appendingPathComponent("fhir").path, encoding: .utf8)))
        let csv = try await stack.cuffctl(["export", "--format", "csv"])
        #expect(csv.output == (try String(contentsOfFile: folder.appendingPathComponent("csv").path, encoding: .utf8)))
        #expect(csv.output.contains(",\"'=1+2, \"\"Dr\"\" Alice\","))
        #expect(try await stack.stopDaemon() == 0)
    }

    @Test("Filters match readings' own; bad arguments exit 64, an unwritable --output 73, and a failed export leaves FILE as it was")
    func filtersAndFailures() async throws {
        try #require(ExternalCommand.exists("python3"))
        let stack = try await Self.stack()
        let csv = stack.directory.appendingPathComponent("export.csv").path
        #expect(try await stack.cuffctl(["export", "--format", "csv", "--person", Self.person, "--output", csv]).status == 0)
        let theirs = try await Self.readings(stack, person: Self.person)
        #expect(theirs.count == 4)
        try await Self.check("csv", csv, against: theirs)
        let window = ["--since", "2026-11-21", "--until", "2026-11-24T07:10:00Z"]
        #expect(try await stack.cuffctl(["export", "--format", "fhir", "--output", csv] + window).status == 0)
        let windowed = try await Self.readings(stack, window)
        #expect(windowed.count == 13)
        try await Self.check("fhir", csv, against: windowed)
        let device = try await stack.cuffctl(["export", "--format", "omh", "--device", "E8:2A:44:10:3C:5D", "--user", "3"])
        #expect(device.status == 0 && device.output == "[]\n", "\(device.error)")

        let before = try Data(contentsOf: URL(fileURLWithPath: csv))
        for arguments in [
            ["--format", "xml"], ["--format", "csv", "--since", "2026-12-02", "--until", "2026-12-01"], ["--format", "csv", "--since", "soon"],
            ["--format", "csv", "--ndjson"], ["--format", "csv", "--device", "zz:zz", "--output", csv],
        ] {
            let outcome = try await stack.cuffctl(["export"] + arguments)
            #expect(outcome.status == 64 && outcome.output.isEmpty && !outcome.error.isEmpty, "\(arguments): \(outcome.status) \(outcome.error)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: csv)) == before)
        let missing = try await stack.cuffctl(["export", "--format", "csv", "--output", stack.directory.appendingPathComponent("no/such/folder.csv").path])
        #expect(missing.status == 73 && missing.error.split(separator: "\n").count == 1, "\(missing.error)")
        let left = try FileManager.default.contentsOfDirectory(atPath: stack.directory.path).filter { $0.hasPrefix(".export.csv") }
        #expect(left.isEmpty, "\(left)")
        #expect(try await stack.stopDaemon() == 0)
    }
}
