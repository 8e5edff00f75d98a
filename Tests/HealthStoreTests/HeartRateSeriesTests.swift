import Foundation
import GRDB
import Testing
@testable import HealthStore

/// A sensor's heart-rate values stored many to a series row (migration v13; docs/health-store.md, "Heart-rate series")
/// and read, paged, summed and deleted one sample each, as per-value rows are.
@Suite struct HeartRateSeriesTests {
    static let strap = HealthDevice(
        identity: "E83CA1FFFE076D21", deviceType: "heart-rate-sensor", name: "HRM-1", manufacturer: "cuffd project", model: "SIM-HR",
        serialNumber: "0007", localIdentifier: "E8:3C:A1:07:6D:21")
    /// 100 s before a slot boundary, so that a few minutes of values span two rollup slots.
    static let start = Fixture.t0.addingTimeInterval(-100.375)

    /// The `n`th value of a strap at 1 Hz as the daemon stores it (its UUID derived from its sync identifier), or with a
    /// random UUID (`series: false`), which keeps it in a row of its own.
    static func value(_ n: Int, contact: Int64 = 2, person: String? = "patient-0001", series: Bool = true, version: Int64 = 1) -> QuantitySample {
        let at = start.addingTimeInterval(Double(n))
        let sync = "cuffd.hr:\(strap.identity):\(SQLiteCoding.micros(at))"
        var metadata = HealthMetadata()
        metadata.syncIdentifier = sync
        metadata.syncVersion = version
        metadata.personIdentifier = person
        metadata[.heartRateSensorContact] = .integer(contact)
        if n % 3 != 0 { metadata[.rrIntervals] = .string("\(800 + n % 97),\(790 + n % 13)") }
        if n % 5 == 0 { metadata[.energyExpended] = .integer(Int64(n % 60_000)) }
        return QuantitySample(
            uuid: series ? .sensorValue(syncIdentifier: sync, at: at) : .timeOrdered(), type: .heartRate,
            quantity: HealthQuantity(unit: .countPerMinute, doubleValue: Double(55 + n * 7 % 61)), start: at, end: at, device: strap,
            metadata: metadata)
    }

    static func seriesRows(_ store: HealthStore) throws -> (series: Int, values: Int, rows: Int) {
        try (store.engine as! SQLiteEngine).read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM sample_series")!, try Int.fetchOne(db, sql: "SELECT coalesce(sum(n), 0) FROM sample_series")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM sample")!)
        }
    }

    static func all(_ store: HealthStore) throws -> [QuantitySample] {
        try store.samples(SampleQuery(type: .heartRate), as: Fixture.daemon)
    }

    /// What a reader sees of a sample: everything but its source revision (the daemon's, set at save).
    static func seen(_ sample: QuantitySample) -> String {
        "\(sample.uuid) \(sample.quantity) \(sample.startDate.timeIntervalSince1970) \(sample.endDate.timeIntervalSince1970) "
            + "\(sample.metadata.values.sorted { $0.key < $1.key }) \(String(describing: sample.device)) \(String(describing: sample.timeZoneIdentifier))"
    }

    @Test func valuesReadBackOneSampleEachAsSaved() throws {
        let store = try Fixture.store()
        let values = (0 ..< 240).map { Self.value($0) }
        for batch in stride(from: 0, to: values.count, by: 60) {
            #expect(try store.save(Array(values[batch ..< batch + 60]), as: Fixture.daemon).allSatisfy(\.didCommit))
        }
        let stored = try Self.seriesRows(store)
        #expect(stored.values == 240 && stored.rows == 0)
        #expect(stored.series == 5)  // four windows, the second cut at the slot boundary
        #expect(try Self.all(store).map(Self.seen) == values.map(Self.seen))
        #expect(try Self.all(store).allSatisfy { $0.sourceRevision != nil })
        // A date range, a limit, descending order, a page after a value, a UUID.
        let range = SamplePredicate(dateRange: DateRange(start: values[50].startDate, end: values[150].startDate))
        #expect(try store.samples(SampleQuery(type: .heartRate, predicate: range), as: Fixture.daemon).map(\.uuid) == values[50 ..< 150].map(\.uuid))
        let latest = try store.samples(SampleQuery(type: .heartRate, sort: .startDateDescending, limit: 7), as: Fixture.daemon)
        #expect(latest.map(\.uuid) == values.suffix(7).reversed().map(\.uuid))
        let after = SamplePredicate(after: SamplePosition(startDate: values[99].startDate, uuid: values[99].uuid))
        #expect(try store.samples(SampleQuery(type: .heartRate, predicate: after, limit: 3), as: Fixture.daemon).map(\.uuid) == values[100 ..< 103].map(\.uuid))
        let one = SamplePredicate(uuids: [values[77].uuid])
        #expect(try store.samples(SampleQuery(type: .heartRate, predicate: one), as: Fixture.daemon).map(Self.seen) == [Self.seen(values[77])])
    }

    @Test func committingAgainStoresNothingTwiceHoweverGrouped() throws {
        let store = try Fixture.store()
        let values = (0 ..< 180).map { Self.value($0) }
        for batch in stride(from: 0, to: 120, by: 60) {
            _ = try store.save(Array(values[batch ..< batch + 60]), as: Fixture.daemon)
        }
        let before = try Self.seriesRows(store)
        // The same values again, in other groups and orders (a retry, the spool replayed), with 60 new ones among them.
        var again = Array(values[30 ..< 180])
        again.reverse()
        var outcomes: [SaveOutcome<QuantitySample>] = []
        for batch in stride(from: 0, to: again.count, by: 7) {
            outcomes += try store.save(Array(again[batch ..< min(batch + 7, again.count)]), as: Fixture.daemon)
        }
        let committed: Set<UUID> = Set(outcomes.filter(\.didCommit).map(\.object.uuid))
        #expect(committed == Set(values[120 ..< 180].map(\.uuid)) && outcomes.filter(\.didCommit).count == 60)
        for outcome in outcomes where !outcome.didCommit {
            guard case .alreadyStored(let stored) = outcome else { Issue.record("not stored already: \(outcome)"); continue }
            #expect(Self.seen(stored) == Self.seen(values.first { $0.uuid == stored.uuid }!))
        }
        #expect(try Self.seriesRows(store).values == 180 && before.values == 120)
        #expect(try Self.all(store).map(\.uuid) == values.map(\.uuid))
        // Once more, all at once: nothing.
        #expect(try store.save(values, as: Fixture.daemon).allSatisfy { !$0.didCommit })
        #expect(try Self.seriesRows(store).values == 180)
        let feed = try store.changes(of: [.quantity(.heartRate)], since: nil, limit: 1000, as: Fixture.daemon)
        #expect(feed.added.map(\.uuid).count == 180 && Set(feed.added.map(\.uuid)).count == 180)
    }

    @Test func valuesStoredInRowsBeforeAreFoundAndReadWithTheSeries() throws {
        let store = try Fixture.store()
        // A store from before migration v13 holds each value in a row of its own, as a value of another shape still is.
        let old = (0 ..< 40).map { Self.value($0, series: false) }
        _ = try store.save(old, as: Fixture.daemon)
        let new = (30 ..< 90).map { Self.value($0) }
        let outcomes = try store.save(new, as: Fixture.daemon)
        #expect(outcomes.filter(\.didCommit).count == 50)
        #expect(try Self.seriesRows(store) == (series: 1, values: 50, rows: 40))
        #expect(try Self.all(store).map(\.uuid) == old.map(\.uuid) + new.suffix(50).map(\.uuid))
    }

    /// A store from before migration v13 opened read-only (`cuffctl --store` on a backup) is not migrated: it has no
    /// series table, and its heart rate reads as before. (Its statistics do not: it lacks the rollup of days of
    /// migration v6 as well, before and after v13.)
    @Test func aStoreFromBeforeSeriesReadsReadOnly() throws {
        let directory = try Fixture.temporaryDirectory()
        let path = directory.appendingPathComponent("store-0.1.sqlite").path
        try FileManager.default.copyItem(atPath: StoreUpgradeTests.fixtures.appendingPathComponent("store-0.1.sqlite").path, toPath: path)
        let store = try HealthStore.openReadOnly(path: path)
        let values = try Self.all(store)
        #expect(!values.isEmpty)
        let feed = try store.changes(of: [.quantity(.heartRate)], since: nil, limit: 10_000, as: Fixture.daemon)
        #expect(feed.added.count == values.count)
    }

    @Test func feedPagesThroughSeriesValuesOnceEach() throws {
        let store = try Fixture.store()
        var expected: [UUID] = []
        for batch in 0 ..< 3 {
            let values = (batch * 50 ..< batch * 50 + 50).map { Self.value($0) }
            _ = try store.save(values, as: Fixture.daemon)
            expected += values.map(\.uuid)
            // A per-value row between the series, in the same feed.
            let row = Fixture.heartRate(70, at: Self.start.addingTimeInterval(1000 + Double(batch)))
            _ = try store.save([row], as: Fixture.daemon)
            expected.append(row.uuid)
        }
        for limit in [1, 7, 50, 51, 1000] {
            var seen: [UUID] = []
            var anchor: QueryAnchor?
            while true {
                let page = try store.changes(of: [.quantity(.heartRate)], since: anchor, limit: limit, as: Fixture.daemon)
                #expect(page.added.count <= limit)
                seen += page.added.map(\.uuid)
                anchor = page.newAnchor
                if !page.hasMore { break }
            }
            #expect(seen == expected, "limit \(limit)")
        }
    }

    @Test func deletingOneValueRewritesItsRowAndTombstonesIt() throws {
        let store = try Fixture.store()
        let values = (0 ..< 60).map { Self.value($0) }
        _ = try store.save(values, as: Fixture.daemon)
        let anchor = try store.changes(of: [.quantity(.heartRate)], since: nil, limit: 1000, as: Fixture.daemon).newAnchor
        #expect(throws: HealthStoreError.notOwner(values[10].uuid)) { try store.delete([values[10].uuid], as: Fixture.alice) }
        #expect(try store.delete([values[10].uuid, values[11].uuid], as: Fixture.daemon) == 2)
        #expect(try Self.all(store).map(\.uuid) == values.filter { $0.uuid != values[10].uuid && $0.uuid != values[11].uuid }.map(\.uuid))
        let feed = try store.changes(of: [.quantity(.heartRate)], since: anchor, limit: 1000, as: Fixture.daemon)
        #expect(feed.added.isEmpty)
        #expect(feed.deleted.map(\.uuid) == [values[10].uuid, values[11].uuid])
        #expect(feed.deleted.map(\.syncIdentifier) == [values[10].metadata.syncIdentifier, values[11].metadata.syncIdentifier])
        #expect(throws: HealthStoreError.objectNotFound(values[10].uuid)) { try store.delete([values[10].uuid], as: Fixture.daemon) }
        // Deleted, a value may be saved again; the row's last value deleted, the row goes.
        #expect(try store.save([values[10]], as: Fixture.daemon)[0].didCommit)
        #expect(try store.delete(values.map(\.uuid).filter { $0 != values[11].uuid }, as: Fixture.daemon) == 59)
        #expect(try Self.seriesRows(store) == (series: 0, values: 0, rows: 0))
    }

    @Test func aNewVersionReplacesAValueWithARowOfItsOwn() throws {
        let store = try Fixture.store()
        let values = (0 ..< 10).map { Self.value($0) }
        _ = try store.save(values, as: Fixture.daemon)
        let revised = Self.value(4, contact: 1, version: 2)
        let outcome = try store.save([revised], as: Fixture.daemon)[0]
        guard case .replaced(_, let replaced) = outcome else { Issue.record("\(outcome)"); return }
        #expect(replaced == values[4].uuid)
        #expect(try Self.all(store).map(\.uuid) == values[0 ..< 4].map(\.uuid) + [revised.uuid] + values[5...].map(\.uuid))
        #expect(try Self.seriesRows(store) == (series: 1, values: 9, rows: 1))
    }

    /// Statistics of series values, from the rollup and from the values themselves, are those of the same values in
    /// rows of their own — before and after deleting some.
    @Test func statisticsAreThoseOfPerValueRows() throws {
        let series = try Fixture.store(), rows = try Fixture.store()
        // Values of two sensor contacts and two people, over a little more than an hour.
        let values = { (series: Bool) in
            (0 ..< 4000).map { n in
                Self.value(n, contact: n % 11 == 0 ? 1 : 2, person: n % 17 == 0 ? "patient-0002" : "patient-0001", series: series)
            }
        }
        for (store, isSeries) in [(series, true), (rows, false)] {
            let all = values(isSeries)
            for batch in stride(from: 0, to: all.count, by: 60) {
                _ = try store.save(Array(all[batch ..< min(batch + 60, all.count)]), as: Fixture.daemon)
            }
        }
        #expect(try Self.seriesRows(series).values == 4000 && Self.seriesRows(rows).values == 0)
        let options: StatisticsOptions = [.discrete, .separateBySource]
        let t = { (seconds: Double) in Self.start.addingTimeInterval(seconds) }
        let predicates: [SamplePredicate] = [
            .all,
            SamplePredicate(dateRange: DateRange(start: t(123.5), end: t(3001.25))),
            SamplePredicate(metadata: [MetadataKey.heartRateSensorContact.name: [.integer(2)]]),
            SamplePredicate(metadata: [MetadataKey.personIdentifier.name: [.string("patient-0002")]]),
            SamplePredicate(deviceIdentity: Self.strap.identity),
        ]
        let boundaries: [[Date]] = [
            [t(-1), t(5000)],
            [t(17.5), t(2222.125)],
            stride(from: Fixture.t0.addingTimeInterval(-1800), through: Fixture.t0.addingTimeInterval(5400), by: 900).map { $0 },
            stride(from: t(0), through: t(4200), by: 420).map { $0 },
        ]
        func compare(_ label: String) throws {
            for predicate in predicates {
                for bounds in boundaries {
                    let a = try series.engine.statistics(of: .heartRate, predicate: predicate, options: options, boundaries: bounds)
                    let b = try rows.engine.statistics(of: .heartRate, predicate: predicate, options: options, boundaries: bounds)
                    #expect(a == b, "\(label): \(predicate) over \(bounds.count - 1) buckets")
                    #expect(a.contains { $0.all.sampleCount > 0 })
                }
            }
        }
        try compare("saved")
        // Sample queries too, the first and last few of each predicate (the series rows read bounded by the limit).
        for predicate in predicates {
            for sort in [SampleSort.startDateAscending, .startDateDescending] {
                for limit in [1, 5, 61, 700] {
                    let query = SampleQuery(type: .heartRate, predicate: predicate, sort: sort, limit: limit)
                    let a = try series.samples(query, as: Fixture.daemon), b = try rows.samples(query, as: Fixture.daemon)
                    #expect(a.map(\.startDate) == b.map(\.startDate) && a.map(\.quantity) == b.map(\.quantity), "\(predicate) \(sort) \(limit)")
                    #expect(a.count == min(limit, try rows.samples(SampleQuery(type: .heartRate, predicate: predicate), as: Fixture.daemon).count))
                }
            }
        }
        let doomed = (0 ..< 4000).filter { $0 % 9 == 4 || (1000 ..< 1100).contains($0) }
        #expect(try series.delete(doomed.map { values(true)[$0].uuid }, as: Fixture.daemon) == doomed.count)
        let rowUUIDs = try Self.all(rows).map(\.uuid)
        #expect(try rows.delete(doomed.map { rowUUIDs[$0] }, as: Fixture.daemon) == doomed.count)
        try compare("after deleting \(doomed.count)")
    }
}
