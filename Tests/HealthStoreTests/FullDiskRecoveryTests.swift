import Foundation
import GRDB
import Testing
@testable import HealthStore

/// What the store does once space returns after a full disk (docs/health-store.md, "Durability").
@Suite("After a full disk", .timeLimit(.minutes(1)))
struct FullDiskRecoveryTests {
    func engine(_ store: HealthStore) throws -> SQLiteEngine { try #require(store.engine as? SQLiteEngine) }

    func size(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    /// Caps the database at `pages` pages, as a disk with that much room would (nil: as many as it had before).
    func cap(_ store: HealthStore, at pages: Int?) throws {
        try engine(store).writer.writeWithoutTransaction { db in
            let limit = try pages ?? Int.fetchOne(db, sql: "PRAGMA page_count")!
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(limit)")
        }
    }

    @Test("The first write once space returns empties the write-ahead log before it writes")
    func theLogIsEmptiedBeforeTheRetry() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("h.sqlite").path
        let store = try HealthStore.open(path: path)
        for n in 0 ..< 40 { _ = try store.saveBloodPressure(Fixture.reading(n), as: Fixture.daemon) }
        let log = try size(path + "-wal")
        try cap(store, at: nil)
        let batch = (0 ..< 2000).map { Fixture.heartRate(Double($0 % 100 + 40), at: Fixture.t0.addingTimeInterval(Double($0))) }
        #expect(throws: HealthStoreError.diskFull) { try store.save(batch, as: Fixture.daemon) }
        #expect(try size(path + "-wal") >= log, "a write-ahead log is not truncated by itself")

        try cap(store, at: 1 << 30)
        _ = try store.saveBloodPressure(Fixture.reading(40), as: Fixture.daemon)
        // Truncated to nothing, then one reading's pages: far less than forty readings' worth.
        let after = try size(path + "-wal")
        #expect(after < log / 4, "log \(log) bytes before, \(after) after")
        #expect(try Fixture.count(store, .bloodPressureSystolic) == 41)
        #expect(try engine(store).integrityCheck() == "ok")
    }
}
