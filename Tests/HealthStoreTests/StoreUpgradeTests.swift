import Foundation
import GRDB
import Testing
@testable import HealthStore

/// Upgrades keep every reading (docs/packaging.md, "Upgrades keep every reading"): each store a release left
/// behind (Fixtures/store-VERSION.sqlite, written by Tests/store-fixture-writer) is opened by today's HealthStore,
/// migrated in place to today's schema, and keeps every reading, grant, sync identifier and tombstone the writer
/// gave it, with `PRAGMA integrity_check` ok.
@Suite("Stores written by earlier releases")
struct StoreUpgradeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let releases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? [])
        .filter { $0.hasPrefix("store-") && $0.hasSuffix(".sqlite") }.sorted()

    static func engine(_ store: HealthStore) throws -> SQLiteEngine { try #require(store.engine as? SQLiteEngine) }

    /// Runs `body` on today's store opened on a copy of `fixture`, with the identifier the file had before.
    static func upgrading(_ fixture: String, _ body: (HealthStore, Data?) throws -> Void) throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(fixture).path
        try FileManager.default.copyItem(atPath: fixtures.appendingPathComponent(fixture).path, toPath: path)
        let before = try DatabaseQueue(path: path)
        let identifier = try before.read { try Data.fetchOne($0, sql: "SELECT identifier FROM store_state WHERE id = 1") }
        try before.close()
        try body(try HealthStore.open(path: path), identifier)
    }

    @Test func aFixtureOfTheCurrentReleaseIsCommitted() {
        #expect(!Self.releases.isEmpty, "no store fixture in \(Self.fixtures.path)")
    }

    @Test("Every reading survives, at its latest version", arguments: releases)
    func readings(fixture: String) throws {
        try Self.upgrading(fixture) { store, _ throws in
            let readings = try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon)
            #expect(readings.map(\.metadata.syncIdentifier) == (1...24).map { "C4F312FFFE53F2C9-1-\($0)" })
            let versions: [Int64?] = (1...24).map { $0 == 10 ? 1 : 0 }
            #expect(readings.map(\.metadata.syncVersion) == versions)
            let systolic = readings.map { $0.objects.first { $0.type == .bloodPressureSystolic }?.quantity.value }
            let expected: [Double?] = (1...24).map { $0 == 10 ? 150 : 120 + Double($0) }
            #expect(systolic == expected)
            let pulses = readings.compactMap { $0.linkedSamples.first?.quantity.value }
            #expect(pulses == Array(repeating: 64, count: 24))
        }
    }

    @Test("Every other sample keeps its source and sync identifier; replaced and deleted ones stay tombstones", arguments: releases)
    func samplesAndTombstones(fixture: String) throws {
        try Self.upgrading(fixture) { store, _ throws in
            let heartRates = try store.samples(SampleQuery(type: .heartRate), as: Fixture.daemon)
                .filter { $0.metadata.syncIdentifier?.hasPrefix("C4F312FFFE53F2C9") == false }
                .map { "\($0.sourceRevision?.source.bundleIdentifier ?? "?") \($0.metadata.syncIdentifier ?? "?") \($0.quantity.value)" }
            #expect(Set(heartRates) == Set((1...5).map { "uid.1000 alice-hr-\($0) \(60 + Double($0))" } + ["org.cuffd.gateway cuffd-hr-1 70.0", "org.cuffd.gateway cuffd-hr-2 70.0"]))
            // Reading 10's version 0 was replaced (its five objects tombstoned) and cuffd-hr-3 deleted.
            let tombstones = try Self.engine(store).read { try String.fetchAll($0, sql: "SELECT sync_identifier FROM tombstone") }
            let replaced = ["", "#systolic", "#diastolic", "#mean", "#pulse"].map { "C4F312FFFE53F2C9-1-10" + $0 }
            #expect(Set(tombstones) == Set(replaced + ["cuffd-hr-3"]) && tombstones.count == 6, "\(tombstones)")
        }
    }

    @Test("Every grant survives", arguments: releases)
    func grants(fixture: String) throws {
        try Self.upgrading(fixture) { store, _ throws in
            #expect(try store.grants(of: 1000) == [
                AuthorizationGrant(uid: 1000, type: .bloodPressureDiastolic, canShare: false, canRead: true),
                AuthorizationGrant(uid: 1000, type: .bloodPressureSystolic, canShare: false, canRead: true),
                AuthorizationGrant(uid: 1000, type: .heartRate, canShare: true, canRead: true),
            ])
            #expect(try store.grants(of: 1001) == [AuthorizationGrant(uid: 1001, type: .heartRate, canShare: false, canRead: true)])
            #expect(try store.grants(of: 1002).isEmpty)
        }
    }

    @Test("The file is migrated to today's schema, keeps its identifier and passes integrity_check", arguments: releases)
    func schema(fixture: String) throws {
        try Self.upgrading(fixture) { store, identifier throws in
            let applied = try Self.engine(store).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") }
            #expect(applied == SQLiteSchema.migrator.migrations)
            if let identifier { #expect(try store.identifier() == SQLiteCoding.uuid(identifier)) }
            #expect(try Self.engine(store).integrityCheck() == "ok")
        }
    }
}
