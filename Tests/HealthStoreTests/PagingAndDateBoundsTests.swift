import Foundation
import GRDB
import Testing
@testable import HealthStore

@Suite("Keyset paging and the dates a query may name")
struct PagingAndDateBoundsTests {
    /// Readings 1…n, an hour apart, with readings `tied` sharing the start date of reading 2.
    static func store(count: Int, tied: Int = 0) throws -> HealthStore {
        let store = try Fixture.store()
        var readings = (1...count).map { Fixture.reading($0) }
        for n in 0..<tied {
            readings.append(BloodPressureReading(
                systolic: 130, diastolic: 85, receivedAt: Fixture.reading(2).receivedAt, device: Fixture.cuff,
                syncIdentifier: "tied-\(n)"))
        }
        _ = try store.saveBloodPressure(readings, as: Fixture.daemon)
        return store
    }

    func page(_ store: HealthStore, _ predicate: SamplePredicate, _ sort: SampleSort, _ limit: Int) throws -> [Correlation] {
        try store.correlations(CorrelationQuery(type: .bloodPressure, predicate: predicate, sort: sort, limit: limit), as: Fixture.daemon)
    }

    @Test("Paging forward with `after` and backward with `before` visits every reading once, ties included")
    func pagesCoverEverythingOnce() throws {
        let store = try Self.store(count: 23, tied: 4)
        let all = try page(store, .all, .startDateAscending, 1000).map(\.uuid)
        #expect(all.count == 27)

        var forward: [UUID] = []
        var predicate = SamplePredicate()
        while true {
            let page = try page(store, predicate, .startDateAscending, 5)
            forward += page.map(\.uuid)
            guard page.count == 5 else { break }
            predicate.after = SamplePosition(page.last!)
        }
        #expect(forward == all)

        var backward: [UUID] = []
        predicate = SamplePredicate()
        while true {
            let page = try page(store, predicate, .startDateDescending, 4)
            backward += page.map(\.uuid)
            guard page.count == 4 else { break }
            predicate.before = SamplePosition(page.last!)
        }
        #expect(backward == all.reversed())
    }

    @Test("A page between two positions, and a device's readings by its local identifier")
    func boundsAndDevice() throws {
        let store = try Self.store(count: 10)
        let all = try page(store, .all, .startDateAscending, 100)
        let between = try page(store, SamplePredicate(before: SamplePosition(all[6]), after: SamplePosition(all[2])), .startDateAscending, 100)
        #expect(between.map(\.uuid) == all[3...5].map(\.uuid))
        #expect(try page(store, SamplePredicate(deviceLocalIdentifier: "C4:F3:12:53:F2:C9"), .startDateAscending, 100).count == 10)
        #expect(try page(store, SamplePredicate(deviceLocalIdentifier: "00:11:22:33:44:55"), .startDateAscending, 100).isEmpty)
    }

    @Test("Statistics honour the paging bounds (they are not summed from the rollup table)")
    func statisticsWithBounds() throws {
        let store = try Self.store(count: 10)
        let all = try page(store, .all, .startDateAscending, 100)
        let statistics = try store.statistics(
            of: .bloodPressureSystolic, predicate: SamplePredicate(before: SamplePosition(all[4])), options: .discrete, as: Fixture.daemon)
        #expect(statistics.all.sampleCount == 4)
    }

    static let unsupported: [Double] = [.nan, .infinity, -.infinity, 9.3e12, -9.3e12, 1e300, 253_402_300_800, -62_135_596_801]

    @Test("A query naming NaN, an infinite or an out-of-range date is refused, never trapped on", arguments: unsupported)
    func unsupportedDatesAreRefused(_ seconds: Double) throws {
        let store = try Self.store(count: 2)
        let date = Date(timeIntervalSince1970: seconds)
        let predicates = [
            SamplePredicate(dateRange: DateRange(start: date)), SamplePredicate(dateRange: DateRange(end: date)),
            SamplePredicate(before: SamplePosition(startDate: date, uuid: UUID())),
            SamplePredicate(metadata: [MetadataKey.deviceTimestamp.name: [.date(date)]]),
        ]
        for predicate in predicates {
            expectUnsupported { _ = try page(store, predicate, .startDateDescending, 10) }
            expectUnsupported { _ = try store.statistics(of: .bloodPressureSystolic, predicate: predicate, options: .discrete, as: Fixture.daemon) }
        }
    }

    private func expectUnsupported(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try body()
            Issue.record("not refused", sourceLocation: sourceLocation)
        } catch HealthStoreError.unsupportedDate {
        } catch {
            Issue.record("refused with \(error), not as an unsupported date", sourceLocation: sourceLocation)
        }
    }

    @Test("Samples dated outside the years 1–9999 are refused and write nothing")
    func unsupportedSampleDates() throws {
        let store = try Self.store(count: 1)
        let sample = Fixture.heartRate(60, at: Date(timeIntervalSince1970: .infinity))
        #expect(throws: HealthStoreError.self) { try store.save([sample], as: Fixture.daemon) }
        #expect(try store.samples(SampleQuery(type: .heartRate), as: Fixture.daemon).count == 1)
    }

    @Test("Microseconds saturate instead of trapping")
    func microsSaturate() {
        #expect(SQLiteCoding.micros(Date(timeIntervalSince1970: .infinity)) == .max)
        #expect(SQLiteCoding.micros(Date(timeIntervalSince1970: -1e300)) == .min)
        #expect(SQLiteCoding.micros(Date(timeIntervalSince1970: .nan)) == 0)
        #expect(SQLiteCoding.micros(Date(timeIntervalSince1970: 1.5)) == 1_500_000)
    }
}

@Suite("The store's identifier")
struct StoreIdentifierTests {
    @Test("Made once per store file and kept across reopening; another store has another")
    func identifierIsStable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-id-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("a.sqlite").path
        let first = try HealthStore.open(path: path).identifier()
        #expect(try HealthStore.open(path: path).identifier() == first)
        #expect(try HealthStore.open(path: directory.appendingPathComponent("b.sqlite").path).identifier() != first)
        #expect(first != UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
    }
}

/// A page is one seek on `sample_type_start` however deep (docs/health-store.md, "Paging"): the query plan of a
/// keyset bound, with its date as a parameter as the store binds it, has a range on `start_at`, not a scan of the
/// type's rows from the first.
@Suite struct PagingPlanTests {
    static func plan(_ predicate: SamplePredicate) throws -> String {
        let database = try DatabaseQueue()
        try SQLiteSchema.migrator.migrate(database)
        let bound = SQLitePredicate(predicate)
        return try database.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT s.id FROM sample s WHERE s.type_id = ? AND \(bound.sql) ORDER BY s.start_at, s.id LIMIT 100",
                             arguments: StatementArguments([1]) + bound.arguments).map { $0["detail"] as String }.joined(separator: "\n")
        }
    }

    @Test func afterAndBeforeSeekTheIndexToThePage() throws {
        let position = SamplePosition(startDate: Fixture.t0, uuid: UUID())
        var after = SamplePredicate()
        after.after = position
        #expect(try Self.plan(after).contains("sample_type_start (type_id=? AND start_at>?)"))
        var before = SamplePredicate()
        before.before = position
        #expect(try Self.plan(before).contains("sample_type_start (type_id=? AND start_at<?)"))
    }
}
