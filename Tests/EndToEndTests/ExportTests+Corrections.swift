import DBusTestSupport
import Foundation
import Testing

extension ExportTests {
    @Test("Corrected readings in every format, read back by independent readers: entered by hand (no device), excluded with its reason — left out with --without-excluded and by Open mHealth —, arm, position, note")
    func corrections() async throws {
        try #require(ExternalCommand.exists("python3"))
        let stack = try await Stack.make(scenario: "stored-records.json", configuration: "[Cuff E8:2A:44:10:3C:5D]\nNoUser=alice\n", manualStart: true)
        try await stack.startDaemon()
        #expect(try await stack.cuffctl(["pair", "E8:2A:44:10:3C:5D"]).status == 0)
        // The cuff measures once more, when START is pressed: wait for it, so that every export sees the same store.
        #expect(try await stack.measure("E8:2A:44:10:3C:5D").status == 0)
        let added = try await stack.cuffctl(
            ["add", "128/82", "--pulse", "70", "--time", "2026-11-19T08:00:00+01:00", "--person", "alice", "--arm", "left", "--position", "sitting",
             "--note", "pharmacy, \"manual\" cuff"])
        #expect(added.status == 0, "\(added.error)")
        let guest = try #require(try await stack.readings().last?["syncIdentifier"] as? String)
        #expect(try await stack.cuffctl(["annotate", guest, "--exclude", "=a guest, used it", "--arm", "right", "--position", "lying"]).status == 0)
        let all = try await Self.readings(stack)
        #expect(all.count == 5)
        let folder = stack.directory.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        for (kind, arguments) in [("csv", ["--format", "csv"]), ("fhir", ["--format", "fhir"]), ("omh", ["--format", "omh"])] {
            let path = folder.appendingPathComponent(kind).path
            let outcome = try await stack.cuffctl(["export", "--output", path] + arguments)
            #expect(outcome.status == 0, "\(kind): \(outcome.error)")
            try await Self.check(kind, path, against: kind == "omh" ? (all.path, 4) : all)
        }
        // --without-excluded: the four that count, checked against the readings less the excluded one.
        let counted = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: all.path))) as? [[String: Any]])
            .filter { $0["excluded"] == nil }
        let countedPath = stack.directory.appendingPathComponent("counted.json").path
        try JSONSerialization.data(withJSONObject: counted).write(to: URL(fileURLWithPath: countedPath))
        let path = folder.appendingPathComponent("csv-counted").path
        #expect(try await stack.cuffctl(["export", "--format", "csv", "--without-excluded", "--output", path]).status == 0)
        try await Self.check("csv", path, against: (countedPath, 4))
        let fhir = try String(contentsOfFile: folder.appendingPathComponent("fhir").path, encoding: .utf8)
        #expect(fhir.contains("Taken on the left arm, sitting.") && fhir.contains("Taken on the right arm, lying."))
    }
}
