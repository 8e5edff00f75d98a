import Foundation
import GRDB
import Testing
@testable import HealthStore

/// `HealthStore.rewritePages`, cuffd's `--rewrite-store` (docs/health-store.md, "Bytes written"): a store made with
/// 4 KiB pages — each release's fixture, opened and migrated by today's store, with a reading and heart-rate values
/// of its own in the write-ahead log — is rewritten with 1 KiB pages, keeps every row of every table and passes
/// `integrity_check`; while the store is open elsewhere nothing changes.
@Suite("Stores rewritten with 1 KiB pages")
struct StoreRewriteTests {
    /// Every row of every table, as text, sorted: what a rewrite must keep.
    static func rows(_ path: String) throws -> [String: [String]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            var rows: [String: [String]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                rows[table] = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map(\.description).sorted()
            }
            return rows
        }
    }

    static func pragma(_ name: String, _ path: String) throws -> String? {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { try String.fetchOne($0, sql: "PRAGMA \(name)") }
    }

    @Test("A 4 KiB store is rewritten with 1 KiB pages, every row kept, once", arguments: StoreUpgradeTests.releases)
    func rewrite(fixture: String) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(fixture).path
        try FileManager.default.copyItem(atPath: StoreUpgradeTests.fixtures.appendingPathComponent(fixture).path, toPath: path)
        do {
            let store = try HealthStore.open(path: path)
            _ = try store.saveBloodPressure(Fixture.reading(90), as: Fixture.daemon)
            _ = try store.save((0..<50).map { Fixture.heartRate(60 + Double($0 % 30), at: Fixture.t0.addingTimeInterval(Double($0))) }, as: Fixture.daemon)
            #expect(throws: HealthStoreError.databaseBusy) { try HealthStore.rewritePages(path: path) }
            #expect(try (store.engine as? SQLiteEngine)?.read { try Int.fetchOne($0, sql: "PRAGMA page_size") } == 4096)
        }
        let before = try Self.rows(path)
        #expect(before["sample"]?.count ?? 0 > 50)

        let sizes = try HealthStore.rewritePages(path: path)
        #expect(sizes.before == 4096 && sizes.after == 1024)
        #expect(try Self.pragma("page_size", path) == "1024")
        #expect(try Self.pragma("journal_mode", path) == "wal")
        #expect(try Self.pragma("integrity_check", path) == "ok")
        #expect(try Self.rows(path) == before)
        let again = try HealthStore.rewritePages(path: path)
        #expect(again.before == 1024 && again.after == 1024)

        let reopened = try HealthStore.open(path: path)
        let readings = try reopened.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon)
        #expect(readings.contains { $0.metadata.syncIdentifier == Fixture.reading(90).syncIdentifier })
    }
}
