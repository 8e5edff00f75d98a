import DBusTestSupport
import Foundation
import GRDB
import Testing
@testable import HealthStore

/// Process-crash durability (docs/reference/HEALTH-STORE.md §13.1, after SQLite's crash tests): a child writer
/// (`store-crash-writer`) is SIGKILLed at random points; afterwards every commit it acknowledged
/// is present, no correlation is half-saved, no revision is half-made (docs/health-store.md, "Revising on request")
/// and `PRAGMA integrity_check` is ok.
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
        var revisions: [String: Int64] = [:]
        var batches: [String] = []
        var seriesBatches: [(id: String, uuids: [UUID])] = []
        for iteration in 0..<iterations {
            let pause = UInt32(rng.next() % 40_000)  // 0–40 ms more of writing after the acknowledgement below, then SIGKILL
            // Every twentieth run is killed only after its first series batch is acknowledged, so that the series rows'
            // checks always have batches to check, however slowly the writer reaches its fifth round.
            let after: Acknowledgement = iteration % 20 == 0 ? .seriesBatch : .anyCommit
            let (output, status, acknowledged) = try await offCooperativePool { try Self.killWriter(writer, path: path, run: iteration, after: after, pause: pause) }
            #expect(acknowledged, "writer acknowledged no \(after) in iteration \(iteration)")
            #expect(status == 128 + SIGKILL, "writer exited on its own (\(status)) in iteration \(iteration)")
            let text = String(decoding: output, as: UTF8.self)
            // Only complete lines are acknowledged commits.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            for line in lines {
                let fields = line.split(separator: " ")
                if fields.first == "R", fields.count == 3 { readings[String(fields[1])] = UUID(uuidString: String(fields[2])) }
                if fields.first == "B", fields.count == 2 { batches.append(String(fields[1])) }
                if fields.first == "S", fields.count == 3 {
                    seriesBatches.append((String(fields[1]), fields[2].split(separator: ",").compactMap { UUID(uuidString: String($0)) }))
                }
                if fields.first == "A", fields.count == 3 { revisions[String(fields[1])] = Int64(fields[2]) }
            }
            try verify(path: path, readings: readings, revisions: revisions, batches: batches, seriesBatches: seriesBatches.suffix(3))
        }
        #expect(!readings.isEmpty && !revisions.isEmpty && !seriesBatches.isEmpty)
    }

    /// What a run waits for before its random pause and kill: any acknowledged commit, or a series batch's ("S").
    enum Acknowledgement: CustomStringConvertible {
        case anyCommit, seriesBatch

        func isMet(by lines: ArraySlice<Data.SubSequence>) -> Bool {
            switch self {
            case .anyCommit: return lines.count >= 2  // "ready" and one acknowledgement
            case .seriesBatch: return lines.contains { $0.starts(with: Data("S ".utf8)) }
            }
        }

        var description: String { self == .anyCommit ? "commit" : "series batch" }
    }

    /// One writer run: started, SIGKILLed `pause` µs after the acknowledgement `after` names (so that every kill lands
    /// while it writes), its acknowledgements read to the end. `acknowledged` is false when the writer ended or
    /// hung before it (a hung one is killed at the deadline).
    static func killWriter(
        _ writer: String, path: String, run: Int, after: Acknowledgement, pause: UInt32
    ) throws -> (output: Data, status: Int32, acknowledged: Bool) {
        let pipe = Pipe()
        let process = try ChildProcess(writer, [path, "run\(run)"], standardOutput: .descriptor(pipe.fileHandleForWriting.fileDescriptor), standardError: .discard)
        try pipe.fileHandleForWriting.close()
        let hung = DispatchWorkItem { kill(process.pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(testDeadline.components.seconds)), execute: hung)
        defer { hung.cancel() }
        let reader = pipe.fileHandleForReading
        var output = Data()
        // Complete lines only: the last piece has no newline yet.
        func completeLines() -> ArraySlice<Data.SubSequence> { output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() }
        while !after.isMet(by: completeLines()) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            output += chunk
        }
        let acknowledged = after.isMet(by: completeLines())
        // Not a wait: a random stretch of further writing, so that the kill lands at a random point of a commit.
        // The checks hold wherever it lands.
        usleep(pause)
        kill(process.pid, SIGKILL)
        output += reader.readDataToEndOfFile()
        return (output, process.waitForExit(), acknowledged)
    }

    /// `readings`: the acknowledged saves, by sync identifier; `revisions`: the acknowledged revisions' versions. A
    /// reading revised since its save — acknowledged or not — has a new UUID, and is found by its sync identifier.
    /// `seriesBatches`: the last acknowledged batches of a sensor's values, which the store keeps in series rows — each
    /// value found once by its UUID, with its batch's sync identifier, and the rows holding as many values as they list.
    func verify(
        path: String, readings: [String: UUID], revisions: [String: Int64], batches: [String], seriesBatches: ArraySlice<(id: String, uuids: [UUID])>
    ) throws {
        let store = try HealthStore.open(path: path)
        for batch in seriesBatches {
            #expect(batch.uuids.count == 50)
            let found = try store.samples(SampleQuery(type: .heartRate, predicate: SamplePredicate(uuids: Set(batch.uuids))), as: Fixture.daemon)
            #expect(found.count == 50 && Set(found.map(\.uuid)) == Set(batch.uuids), "series batch \(batch.id) has \(found.count) of 50 values")
            #expect(found.allSatisfy { $0.metadata.syncIdentifier?.hasPrefix("\(batch.id)-hrs:") == true })
        }
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
            let stored = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT sync_identifier, uuid, sync_version FROM sample WHERE is_correlation = 1").map {
                (($0[0] as String), (uuid: SQLiteCoding.uuid($0[1]), version: $0[2] as Int64))
            })
            let missing = readings.filter { id, uuid in stored[id].map { $0.uuid != uuid && $0.version == 0 } ?? true }
            #expect(missing.isEmpty, "acknowledged readings missing: \(missing.keys.sorted().prefix(5))")
            let unrevised = revisions.filter { id, version in (stored[id]?.version ?? -1) < version }
            #expect(unrevised.isEmpty, "acknowledged revisions missing: \(unrevised.keys.sorted().prefix(5))")
            // A revision is whole: every member at its correlation's version, with its note and exclusion.
            let torn = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM sample m JOIN sample c ON c.id = m.correlation_id
                WHERE m.sync_version != c.sync_version OR json_extract(m.metadata, '$.Note') IS NOT json_extract(c.metadata, '$.Note')
                   OR json_extract(m.metadata, '$.ExclusionReason') IS NOT json_extract(c.metadata, '$.ExclusionReason')
                """)!
            #expect(torn == 0)
            // Nothing stored twice: each series value once, in its rows' counts and among the values they read back as.
            let (listed, distinct) = try Row.fetchOne(db, sql: """
                SELECT (SELECT coalesce(sum(n), 0) FROM sample_series),
                       (SELECT count(DISTINCT sync_identifier) FROM \(SQLiteSchema.samples(series: "1")) WHERE sync_identifier LIKE '%-hrs:%')
                """).map { ($0[0] as Int, $0[1] as Int) }!
            #expect(listed == distinct, "series rows list \(listed) values, \(distinct) distinct")
            for batch in batches.suffix(3) {
                let n = try Int.fetchOne(db, sql: "SELECT count(*) FROM sample WHERE sync_identifier LIKE ?", arguments: ["\(batch)-hr-%"])!
                #expect(n == 50, "batch \(batch) has \(n) of 50 samples")
            }
        }
    }
}
