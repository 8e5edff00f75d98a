import Foundation
import GRDB
import Testing
@testable import HealthStore

/// ``SQLiteRawStatement`` steps around GRDB's transaction-observer bookkeeping; what makes that safe is checked.
@Suite struct RawStatementTests {
    @Test("A raw statement is made only inside a transaction")
    func onlyInsideATransaction() throws {
        let queue = try DatabaseQueue()
        try queue.writeWithoutTransaction { db in
            #expect(throws: SQLiteRawStatement.OutsideTransaction.self) { try SQLiteRawStatement(db, sql: "SELECT 1") }
            try db.inTransaction {
                _ = try SQLiteRawStatement(db, sql: "SELECT 1")
                return .commit
            }
        }
    }

    /// GRDB observers would miss the raw statements' changes: HealthStore must never register one.
    @Test("Nothing in HealthStore registers a GRDB transaction observer or value observation")
    func noGRDBObservers() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/HealthStore")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)).compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
        #expect(files.count > 20)
        for file in files {
            let code = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            #expect(!code.contains("add(transactionObserver") && !code.contains("ValueObservation"), "\(file.lastPathComponent)")
        }
    }
}
