import BenchmarkSupport
import DBusTestSupport
import Foundation
import GRDB
import Testing

/// cuffd SIGKILLed while one `AnnotateReadings` of many readings is in flight (docs/dbus-api.md, "Correcting readings":
/// all or nothing): once cuffd runs again, every reading is revised — excluded, at sync version 1, with its
/// edit-history row and out of the statistics' rollup — or none is, and an answered call is never lost.
///
/// It watches the store's folder (``FolderWatch``), so scripts/test runs it with the suites that start servers.
@Suite("SIGKILL during AnnotateReadings")
struct AnnotateCrashTests {
    /// Readings annotated in the one call: their new revision is some megabytes of the write-ahead log, written frame by
    /// frame before the commit frame — a window a kill can fall in —, and a debug build annotates them within the
    /// deadline on a busy machine.
    static let count = 2_000

    @Test("cuffd SIGKILLed once an annotation of 2 000 readings reaches the write-ahead log: after a restart all are revised or none")
    func killedDuringAnnotation() async throws {
        // No cuff is paired, so nothing but the annotation writes to the store.
        let stack = try await Stack.make(scenario: "stored-records.json")
        try await offCooperativePool { try makeStore(stack.storePath, count: Self.count) }
        try await stack.startDaemon()
        let wal = stack.storePath + "-wal"
        let before = Self.size(wal)
        let identifiers = (0..<Self.count).map { syntheticReading($0).syncIdentifier }
        let annotate = try stack.startCuffctl(["annotate"] + identifiers + ["--exclude", "guest"], log: "annotate.log")
        // The observable point: the transaction's pages reach the write-ahead log (with cuffd's 64 MiB page cache, when
        // it commits: frames first, the commit frame last) while the call is unanswered.
        var unanswered = true
        try await FolderWatch.wait(
            "the annotation's pages in \(wal) (\(before) bytes before)", in: [stack.directory.path],
            detail: "\(Self.size(wal)) bytes now\n\(stack.text("annotate.log").suffix(2000))\n\(stack.text("cuffd.log").suffix(2000))"
        ) {
            unanswered = annotate.isRunning
            return Self.size(wal) > before || !unanswered
        }
        try await stack.killDaemon()
        let answered = try await offCooperativePool { annotate.waitForExit() } == 0

        try await stack.startDaemon()
        let readings = try await stack.readings()
        let excluded = readings.filter { $0["exclusionReason"] as? String == "guest" }.count
        let outcome = "\(excluded) of \(readings.count) excluded; killed with the call \(unanswered ? "unanswered" : "answered"), cuffctl \(answered ? "acknowledged it" : "failed"):\n\(stack.text("annotate.log").suffix(2000))"
        // Which of the two it was depends on where in the commit the kill fell; either is whole.
        print("AnnotateCrashTests: \(excluded) of \(readings.count) excluded after the kill")
        #expect(unanswered, "the kill came after the answer: \(outcome)")
        #expect(readings.count == Self.count, "\(outcome)")
        #expect(excluded == 0 || excluded == Self.count, "half a revision: \(outcome)")
        if answered { #expect(excluded == Self.count, "an acknowledged annotation lost: \(outcome)") }
        let stats = try await stack.cuffctl(["stats", "--json"])
        let figures = try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: [String: Any]]
        #expect(figures?["systolic"]?["count"] as? Int == Self.count - excluded, "the rollup: \(stats.output) \(outcome)")
        #expect(try await stack.stopDaemon() == 0)

        // The rows themselves: the new revision's versions and edit-history rows go with the exclusions.
        let store = try DatabaseQueue(path: stack.storePath)
        let (integrity, revised, history) = try await store.read { db in
            (try String.fetchOne(db, sql: "PRAGMA integrity_check"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM sample WHERE is_correlation = 1 AND sync_version = 1"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM edit_history"))
        }
        #expect(integrity == "ok")
        #expect(revised == excluded && history == excluded, "\(revised ?? -1) revised, \(history ?? -1) edit-history rows: \(outcome)")
    }

    /// The size of the file at `path`, 0 when there is none.
    static func size(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }
}
