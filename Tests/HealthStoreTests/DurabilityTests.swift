import Foundation
import GRDB
import Testing
@testable import HealthStore

/// The SQLite engine's durability settings, file modes, migrations and error mapping
/// (docs/reference/HEALTH-STORE.md §12).
@Suite struct DurabilityTests {
    func engine(_ store: HealthStore) throws -> SQLiteEngine { try #require(store.engine as? SQLiteEngine) }

    @Test func walAndSynchronousFullAreEnforcedAndVerified() throws {
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try HealthStore.open(path: dir.appendingPathComponent("h.sqlite").path)
        let settings = try engine(store).durabilitySettings()
        #expect(settings.journalMode == "wal")
        #expect(settings.synchronous == 2)
    }

    @Test("A new store is made with 1 KiB pages; a store made with SQLite's 4 KiB keeps them, in WAL mode")
    func pageSizeOfNewStoresOnly() throws {
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fresh = try HealthStore.open(path: dir.appendingPathComponent("new.sqlite").path)
        #expect(try engine(fresh).read { try Int.fetchOne($0, sql: "PRAGMA page_size") } == 1024)
        #expect(try engine(fresh).durabilitySettings().journalMode == "wal")
        let olderPath = dir.appendingPathComponent("older.sqlite").path
        try DatabaseQueue(path: olderPath).writeWithoutTransaction { try $0.execute(sql: "PRAGMA page_size = 4096; VACUUM") }
        let older = try HealthStore.open(path: olderPath)
        #expect(try engine(older).read { try Int.fetchOne($0, sql: "PRAGMA page_size") } == 4096)
        #expect(try engine(older).durabilitySettings().journalMode == "wal")
    }

    @Test func plainGRDBPoolWouldHaveLeftNormal() throws {
        // The reason for the explicit PRAGMA: GRDB's DatabasePool sets NORMAL on its writer.
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let pool = try DatabasePool(path: dir.appendingPathComponent("p.sqlite").path, configuration: config)
        #expect(try pool.write { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 1)
    }

    @Test(arguments: [UInt16(0o600), 0o640])
    func filesAreCreatedWithTheConfiguredMode(_ mode: UInt16) throws {
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("h.sqlite").path
        var configuration = StoreConfiguration()
        configuration.fileMode = mode
        let store = try HealthStore.open(path: path, configuration: configuration)
        _ = try store.saveBloodPressure(Fixture.reading(), as: Fixture.daemon)
        for suffix in ["", "-wal", "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path + suffix)
            #expect((attributes[.posixPermissions] as? NSNumber)?.uint16Value == mode, "\(suffix)")
        }
    }

    @Test func migrationsAreVersionedAndDataSurvivesReopen() throws {
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("h.sqlite").path
        let saved = try HealthStore.open(path: path).saveBloodPressure(Fixture.reading(), as: Fixture.daemon).object
        let reopened = try HealthStore.open(path: path)
        #expect(try reopened.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).map(\.uuid) == [saved.uuid])
        let migrations = try engine(reopened).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(migrations == ["v1", "v2-rollup", "v3-store-identifier", "v4-application-id", "v5-writer-release", "v6-rollup-parts", "v7-grant-people", "v8-deleted-sync-keys", "v9-rollup-exclusion", "v10-edit-history", "v11-rollup-update-when-changed", "v12-rollup-marks", "v13-heart-rate-series"])
        #expect(try engine(reopened).integrityCheck() == "ok")
    }

    @Test func aDatabaseFromANewerBuildIsRefused() throws {
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("h.sqlite").path
        let store = try HealthStore.open(path: path)
        try engine(store).write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99')") }
        #expect(throws: HealthStoreError.unsupportedSchema("written by a newer cuffd (schema v99); this build reads schemas up to v13-heart-rate-series")) {
            try HealthStore.open(path: path)
        }
    }

    @Test func queriesUseTheIndices() throws {
        let store = try Fixture.store()
        let plan = try engine(store).read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT id FROM sample s WHERE s.type_id = 1 AND s.is_correlation = 1 ORDER BY s.start_at DESC LIMIT 100")
                .map { $0["detail"] as String }.joined(separator: ";")
        }
        #expect(plan.contains("sample_type_start"))
    }

    @Test func aFullDiskIsATypedErrorAndWritesNothing() throws {
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try HealthStore.open(path: dir.appendingPathComponent("h.sqlite").path)
        _ = try store.saveBloodPressure(Fixture.reading(), as: Fixture.daemon)
        try engine(store).writer.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count")!
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages)")
        }
        let batch = (0..<2000).map { Fixture.heartRate(Double($0 % 100 + 40), at: Fixture.t0.addingTimeInterval(Double($0))) }
        #expect(throws: HealthStoreError.diskFull) { try store.save(batch, as: Fixture.daemon) }
        #expect(try Fixture.count(store, .heartRate) == 1)
        #expect(try engine(store).integrityCheck() == "ok")
    }

    @Test func durabilityNotEnforcedHasAClearMessage() {
        let message = HealthStoreError.durabilityNotEnforced(journalMode: "delete", synchronous: 1).description
        #expect(message.contains("journal_mode=delete") && message.contains("synchronous=1"))
        #expect(HealthStoreError.diskFull.description.contains("disk full"))
    }
}
