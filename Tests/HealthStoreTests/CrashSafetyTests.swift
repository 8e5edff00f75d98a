import DBusTestSupport
import Foundation
import GRDB
import Testing
@testable import HealthStore

/// Process-crash durability (docs/reference/HEALTH-STORE.md §13.1, after SQLite's crash tests): a child writer
/// (`store-crash-writer`) is SIGKILLed at random points; afterwards every commit it acknowledged
/// is present, no correlation is half-saved and `PRAGMA integrity_check` is ok.
///
/// Iterations: `CUFFD_CRASH_ITERATIONS` (the documented full run is 200, also the default; about
/// 20 s on two cores). Seed: `CUFFD_CRASH_SEED` for a reproducible run.
@Suite struct CrashSafetyTests {
    static var writerPath: String {
        if let path = ProcessInfo.processInfo.environment["CUFFD_CRASH_WRITER"] { return path }
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = runner.deletingLastPathComponent()
        // The runner may be inside a .xctest bundle directory.
        while !dir.path.isEmpty, dir.path != "/", !FileManager.default.fileExists(atPath: dir.appendingPathComponent("store-crash-writer").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("store-crash-writer").path
    }

    @Test func killedWritersNeverLoseAcknowledgedReadingsOrLeaveHalfCorrelations() async throws {
        let environment = ProcessInfo.processInfo.environment
        let iterations = Int(environment["CUFFD_CRASH_ITERATIONS"] ?? "") ?? 200
        var rng = SplitMix(seed: UInt64(environment["CUFFD_CRASH_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970))
        let writer = Self.writerPath
        try #require(FileManager.default.isExecutableFile(atPath: writer), "store-crash-writer not found at \(writer)")
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("crash.sqlite").path

        var readings: [String: UUID] = [:]
        var batches: [String] = []
        var killedMidRun = 0
        for iteration in 0..<iterations {
            let pause = UInt32(rng.next() % 40_000)  // 0–40 ms of writing, then SIGKILL
            let (output, reason) = try await offCooperativePool { try Self.killWriter(writer, path: path, run: iteration, after: pause) }
            #expect(reason == .uncaughtSignal, "writer exited on its own in iteration \(iteration)")
            let text = String(decoding: output, as: UTF8.self)
            // Only complete lines are acknowledged commits.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            for line in lines {
                let fields = line.split(separator: " ")
                if fields.first == "R", fields.count == 3 { readings[String(fields[1])] = UUID(uuidString: String(fields[2])) }
                if fields.first == "B", fields.count == 2 { batches.append(String(fields[1])) }
            }
            if lines.count > 1 { killedMidRun += 1 }
            try verify(path: path, readings: readings, batches: batches)
        }
        #expect(killedMidRun > iterations / 2, "most kills should land while writing")
        #expect(!readings.isEmpty)
    }

    /// One writer run: started, SIGKILLed `pause` µs after it is ready, its acknowledgements read to the end.
    static func killWriter(_ writer: String, path: String, run: Int, after pause: UInt32) throws -> (Data, Process.TerminationReason) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: writer)
        process.arguments = [path, "run\(run)"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = pipe.fileHandleForReading
        var output = Data()
        while !(String(decoding: output, as: UTF8.self).contains("ready\n")) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            output += chunk
        }
        usleep(pause)
        kill(process.processIdentifier, SIGKILL)
        output += reader.readDataToEndOfFile()
        process.waitUntilExit()
        return (output, process.terminationReason)
    }

    func verify(path: String, readings: [String: UUID], batches: [String]) throws {
        let store = try HealthStore.open(path: path)
        let engine = try #require(store.engine as? SQLiteEngine)
        #expect(try engine.integrityCheck() == "ok")
        try engine.read { db in
            // No half-saved correlation: each has exactly one systolic, one diastolic, one mean and
            // one pulse (the writer always sends all four), and no child lacks its parent.
            let broken = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM sample c WHERE c.is_correlation = 1
                  AND (SELECT count(*) FROM sample m WHERE m.correlation_id = c.id) != 4
                """)!
            #expect(broken == 0)
            let orphans = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM sample m WHERE m.correlation_id IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM sample c WHERE c.id = m.correlation_id)
                """)!
            #expect(orphans == 0)
            let uuids = Set(try Data.fetchAll(db, sql: "SELECT uuid FROM sample WHERE is_correlation = 1").map(SQLiteCoding.uuid))
            let missing = readings.filter { !uuids.contains($0.value) }
            #expect(missing.isEmpty, "acknowledged readings missing: \(missing.keys.sorted().prefix(5))")
            for batch in batches.suffix(3) {
                let n = try Int.fetchOne(db, sql: "SELECT count(*) FROM sample WHERE sync_identifier LIKE ?", arguments: ["\(batch)-hr-%"])!
                #expect(n == 50, "batch \(batch) has \(n) of 50 samples")
            }
        }
    }
}
