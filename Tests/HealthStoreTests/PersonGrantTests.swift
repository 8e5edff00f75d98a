import Foundation
import GRDB
import Testing
@testable import HealthStore

/// Read grants of named people (docs/health-store.md, "Authorization"): a client granted alice's samples reads alice's
/// readings, pulses, heart-rate values, statistics and changes, and nothing of bob's or of readings of no person, in
/// every query; grants of several people add up.
@Suite struct PersonGrantTests {
    static let carol = HealthClient.user(uid: 1002)
    static let bloodPressure: [QuantityType] = [.bloodPressureSystolic, .bloodPressureDiastolic, .bloodPressureMean, .heartRate]
    static let columns = CorrelationColumns(values: bloodPressure, metadata: [.personIdentifier])

    static func reading(_ n: Int, _ person: String?, systolic: Double, version: Int64 = 0) -> BloodPressureReading {
        var reading = Fixture.reading(n, version: version, systolic: systolic, pulse: 60 + Double(n))
        reading.personIdentifier = person
        return reading
    }

    static func heartRate(_ bpm: Double, _ n: Int, _ person: String?) -> QuantitySample {
        var metadata = HealthMetadata()
        metadata.personIdentifier = person
        metadata[.heartRateSensorContact] = .integer(2)
        return Fixture.heartRate(bpm, at: Fixture.t0.addingTimeInterval(Double(n) * 60), sync: "hr-\(n)", metadata: metadata)
    }

    /// Alice's readings 1 and 3 (systolic 110, 130), bob's 2 (150), reading 4 of no person (170); heart-rate values of
    /// alice (70, 72), bob (90) and no person (100).
    static func store() throws -> HealthStore {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure([
            reading(1, "alice", systolic: 110), reading(2, "bob", systolic: 150), reading(3, "alice", systolic: 130), reading(4, nil, systolic: 170),
        ], as: Fixture.daemon)
        _ = try store.save([heartRate(70, 1, "alice"), heartRate(90, 2, "bob"), heartRate(72, 3, "alice"), heartRate(100, 4, nil)], as: Fixture.daemon)
        return store
    }

    static func grant(_ store: HealthStore, _ people: Set<String>?, types: [QuantityType] = bloodPressure, uid: UInt32 = 1002) throws {
        for type in types {
            try store.setAuthorization(AuthorizationGrant(uid: uid, type: type, canShare: false, canRead: true, people: people), by: Fixture.root)
        }
    }

    static func systolics(_ store: HealthStore, as client: HealthClient) throws -> [Double] {
        try store.correlations(CorrelationQuery(type: .bloodPressure), as: client)
            .compactMap { $0.objects.first { $0.type == .bloodPressureSystolic }?.quantity.value }
    }

    @Test("Readings, flat rows and heart-rate values: only the granted person's")
    func queries() throws {
        let store = try Self.store()
        try Self.grant(store, ["alice"])
        #expect(try Self.systolics(store, as: Self.carol) == [110, 130])
        let rows = try store.correlationRows(CorrelationQuery(type: .bloodPressure), columns: Self.columns, as: Self.carol)
        #expect(rows.map(\.values[0]) == [110, 130] && rows.map(\.values[3]) == [61, 63])
        #expect(rows.allSatisfy { $0.metadata[0] == .string("alice") })
        let sensors = try store.samples(SampleQuery(type: .heartRate, predicate: SamplePredicate(excludeCorrelated: true)), as: Self.carol)
        #expect(sensors.map(\.quantity.value) == [70, 72])
        // The pulses of alice's readings, nothing of bob's: her own pulse samples, 61 and 63.
        let pulses = try store.samples(SampleQuery(type: .heartRate, predicate: SamplePredicate(onlyCorrelated: true)), as: Self.carol)
        #expect(pulses.map(\.quantity.value) == [61, 63])
        // A predicate of its own on the person is narrowed, never widened.
        let bobs = SamplePredicate(metadata: [MetadataKey.personIdentifier.name: [.string("bob")]])
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure, predicate: bobs), as: Self.carol).isEmpty)
        #expect(try store.seesAny(of: [.correlation(.bloodPressure)], as: Self.carol))
        // The daemon and a grant of everyone's see all four.
        try Self.grant(store, nil, uid: 1000)
        #expect(try Self.systolics(store, as: Fixture.alice) == [110, 150, 130, 170])
    }

    @Test("Statistics: the granted person's values alone, one interval and buckets, each type and part")
    func statistics() throws {
        let store = try Self.store()
        try Self.grant(store, ["alice"])
        let systolic = try store.statistics(of: .bloodPressureSystolic, predicate: .all, options: .discrete, as: Self.carol).all
        #expect(systolic.sampleCount == 2 && systolic.minimum?.value == 110 && systolic.maximum?.value == 130)
        #expect(systolic.average?.value == 120 && systolic.mostRecent?.value == 130)
        var pulse = SamplePredicate(onlyCorrelated: true)
        pulse.dateRange = DateRange(start: Fixture.t0, end: Fixture.t0.addingTimeInterval(86_400), strictStartDate: true)
        let pulses = try store.statistics(of: .heartRate, predicate: pulse, options: .discrete, as: Self.carol).all
        #expect(pulses.sampleCount == 2 && pulses.average?.value == 62)
        let sensor = SamplePredicate(metadata: [MetadataKey.heartRateSensorContact.name: [.integer(0), .integer(2)]], excludeCorrelated: true)
        let sensors = try store.statistics(of: .heartRate, predicate: sensor, options: .discrete, as: Self.carol).all
        #expect(sensors.sampleCount == 2 && sensors.average?.value == 71 && sensors.maximum?.value == 72)
        // Everyone's, from the rollup, for comparison: four readings.
        #expect(try store.statistics(of: .bloodPressureSystolic, predicate: .all, options: .discrete, as: Fixture.daemon).all.sampleCount == 4)
        let days = StatisticsCollectionQuery(
            type: .bloodPressureSystolic, options: .discrete, anchorDate: Fixture.t0, interval: .day, timeZone: TimeZone(identifier: "UTC")!,
            start: Fixture.t0.addingTimeInterval(-86_400), end: Fixture.t0.addingTimeInterval(86_400))
        let buckets = try store.statisticsCollection(days, as: Self.carol)
        #expect(buckets.map(\.all.sampleCount).reduce(0, +) == 2 && buckets.compactMap(\.all.maximum?.value).max() == 130)
    }

    @Test("A restricted statistic reads the person's samples along their index, not every sample of the type")
    func statisticsUseThePersonIndex() throws {
        let store = try Self.store()
        let engine = try #require(store.engine as? SQLiteEngine)
        // The shape of a bucket's scan: the bucket's range and the filter's, then the person.
        var restricted = SamplePredicate.all.restricted(toPeople: ["alice", "bob"])
        restricted.dateRange = DateRange(start: Fixture.t0, end: Fixture.t0.addingTimeInterval(86_400), strictStartDate: true)
        #expect(SQLitePredicate.personIndexHint(.all).isEmpty)
        let predicate = SQLitePredicate(restricted)
        let plan = try engine.read { db in
            try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT count(s.value), max(s.value) FROM sample s\(SQLitePredicate.personIndexHint(restricted))
                WHERE s.type_id = ? AND s.start_at >= ? AND s.start_at < ? AND s.correlation_id IS NOT NULL AND \(predicate.sql)
                """, arguments: [1, 0, Int64.max] + predicate.arguments).map { $0[3] as String }
        }
        #expect(plan == ["SEARCH s USING INDEX sample_type_person_start (type_id=? AND <expr>=? AND start_at>? AND start_at<?)"], "\(plan)")
    }

    @Test("The change feed: the person's readings and deletions, not others', objects and rows alike")
    func changes() throws {
        let store = try Self.store()
        try Self.grant(store, ["alice"])
        try Self.grant(store, ["bob"], uid: 1001)
        let start = try store.changes(of: [.correlation(.bloodPressure)], since: nil, limit: 100, as: Self.carol)
        #expect(start.added.count == 2)
        let rowsStart = try store.correlationRowChanges(of: .bloodPressure, columns: Self.columns, since: nil, limit: 100, as: Self.carol)
        #expect(rowsStart.added.map(\.values[0]) == [110, 130] && rowsStart.newAnchor == start.newAnchor)

        // Bob's reading deleted, alice's reading 3 moved to bob by a new version: alice's reader is told that her
        // reading 3 left (a deletion of its old version) and nothing of bob's; bob's reader gets the moved reading.
        let all = try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon)
        let bobs = try #require(all.first { $0.metadata.personIdentifier == "bob" })
        #expect(try store.delete([bobs.uuid], as: Fixture.daemon) == 5)
        _ = try store.saveBloodPressure(Self.reading(3, "bob", systolic: 130, version: 1), as: Fixture.daemon)

        let next = try store.changes(of: [.correlation(.bloodPressure)], since: start.newAnchor, limit: 100, as: Self.carol)
        #expect(next.added.isEmpty)
        #expect(next.deleted.filter { $0.typeIdentifier == "bloodPressure" }.map(\.syncIdentifier) == ["C4F312FFFE53F2C9-1-3"])
        let rows = try store.correlationRowChanges(of: .bloodPressure, columns: Self.columns, since: start.newAnchor, limit: 100, as: Self.carol)
        #expect(rows.added.isEmpty && rows.deleted.map(\.syncIdentifier) == ["C4F312FFFE53F2C9-1-3"])
        let bob = try store.changes(of: [.correlation(.bloodPressure)], since: start.newAnchor, limit: 100, as: Fixture.bob)
        #expect(bob.added.count == 1 && bob.deleted.map(\.syncIdentifier) == ["C4F312FFFE53F2C9-1-2"])
        #expect(try Self.systolics(store, as: Self.carol) == [110])
        #expect(try Self.systolics(store, as: Fixture.bob) == [130])
    }

    @Test("Grants of several people add up; a reading must be readable in every member type")
    func scopes() throws {
        let store = try Self.store()
        try Self.grant(store, ["alice", "bob"])
        #expect(try Self.systolics(store, as: Self.carol) == [110, 150, 130])
        // Systolic of alice's only: a whole reading needs every member type, so only hers remain.
        try Self.grant(store, ["alice"], types: [.bloodPressureSystolic])
        #expect(try Self.systolics(store, as: Self.carol) == [110, 130])
        // Heart rate of bob's only: alice's readings are shown without their pulse, as objects and as rows.
        try Self.grant(store, ["bob"], types: [.heartRate])
        let readings = try store.correlations(CorrelationQuery(type: .bloodPressure), as: Self.carol)
        #expect(readings.count == 2 && readings.allSatisfy { $0.linkedSamples.isEmpty && $0.objects.count == 3 })
        let rows = try store.correlationRows(CorrelationQuery(type: .bloodPressure), columns: Self.columns, as: Self.carol)
        #expect(rows.map(\.values[0]) == [110, 130] && rows.allSatisfy { $0.values[3] == nil && $0.values[2] != nil })
        try Self.grant(store, ["alice", "bob"], types: [.heartRate])
        #expect(try store.correlationRows(CorrelationQuery(type: .bloodPressure), columns: Self.columns, as: Self.carol).map(\.values[3]) == [61, 63])
        // Systolic of alice's, diastolic of bob's: no person in common, no reading, nothing to read at all.
        try Self.grant(store, ["bob"], types: [.bloodPressureDiastolic])
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Self.carol).isEmpty)
        #expect(try !store.seesAny(of: [.correlation(.bloodPressure)], as: Self.carol))
        // An empty set of people is no read grant: the type leaves the uid's grants.
        try Self.grant(store, [], types: [.bloodPressureSystolic])
        #expect(try store.grants(of: 1002).map(\.type) == [.bloodPressureDiastolic, .bloodPressureMean, .heartRate])
        #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Self.carol).isEmpty)
    }

    @Test("A store of an earlier release: its grants read everyone's as before, its tombstones (of no person) reach them alone", arguments: StoreUpgradeTests.releases)
    func upgraded(fixture: String) throws {
        try StoreUpgradeTests.upgrading(fixture) { store, _ throws in
            // uid 1000 reads systolic and diastolic of everyone's, and heart rate: all 24 readings, and the deleted cuffd-hr-3.
            #expect(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.alice).count == 24)
            let feed = try store.changes(of: [.quantity(.heartRate)], since: nil, limit: 1000, as: Fixture.alice)
            #expect(feed.deleted.map(\.syncIdentifier).contains("cuffd-hr-3"))
            try store.setAuthorization(AuthorizationGrant(uid: 1002, type: .heartRate, canShare: false, canRead: true, people: ["alice"]), by: Fixture.root)
            _ = try store.save([Self.heartRate(75, 9, "alice")], as: Fixture.daemon)
            let named = try store.changes(of: [.quantity(.heartRate)], since: nil, limit: 1000, as: Self.carol)
            #expect(named.added.count == 1 && named.deleted.isEmpty)
        }
    }

    @Test("The people of a grant are stored and survive reopening; a grant without them keeps reading everyone's")
    func persisted() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        do {
            let store = try HealthStore.open(path: path)
            _ = try store.saveBloodPressure([Self.reading(1, "alice", systolic: 110), Self.reading(2, "bob", systolic: 150)], as: Fixture.daemon)
            try Self.grant(store, ["alice", "dana"])
            try Self.grant(store, nil, uid: 1001)
        }
        let store = try HealthStore.open(path: path)
        #expect(try store.grants(of: 1002).map(\.people) == Array(repeating: ["alice", "dana"], count: 4))
        #expect(try store.grants(of: 1001).allSatisfy { $0.canRead && $0.people == nil })
        #expect(try Self.systolics(store, as: Self.carol) == [110])
        #expect(try Self.systolics(store, as: Fixture.bob) == [110, 150])
    }
}
