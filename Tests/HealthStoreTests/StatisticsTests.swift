import DBusTestSupport
import Foundation
import GRDB
import Testing
@testable import HealthStore

/// Statistics and statistics collections (docs/reference/HEALTH-STORE.md §5; `HKStatisticsQuery`).
@Suite struct StatisticsTests {
    @Test func minMaxAverageMostRecent() throws {
        let store = try Fixture.store()
        _ = try store.save([70, 50, 90, 60].enumerated().map { Fixture.heartRate($1, at: Fixture.t0.addingTimeInterval(Double($0) * 60)) }, as: Fixture.daemon)
        let s = try store.statistics(of: .heartRate, predicate: .all, options: .discrete, as: Fixture.daemon)
        #expect(s.all.sampleCount == 4)
        #expect(s.all.minimum?.value == 50)
        #expect(s.all.maximum?.value == 90)
        #expect(s.all.average?.value == 67.5)
        #expect(s.all.mostRecent?.value == 60)
        #expect(s.all.mostRecentDate == Fixture.t0.addingTimeInterval(180))
        #expect(s.all.average?.unit == .countPerMinute)
        let onlyMin = try store.statistics(of: .heartRate, predicate: .all, options: .minimum, as: Fixture.daemon)
        #expect(onlyMin.all.minimum?.value == 50 && onlyMin.all.maximum == nil)
    }

    @Test func separateBySource() throws {
        let store = try Fixture.store()
        try store.setAuthorization(AuthorizationGrant(uid: 1000, type: .heartRate, canShare: true, canRead: true), by: Fixture.root)
        _ = try store.save([Fixture.heartRate(60, at: Fixture.t0), Fixture.heartRate(80, at: Fixture.t0)], as: Fixture.daemon)
        _ = try store.save([Fixture.heartRate(100, at: Fixture.t0)], as: Fixture.alice)
        let s = try store.statistics(of: .heartRate, predicate: .all, options: [.average, .maximum, .separateBySource], as: Fixture.daemon)
        #expect(abs(s.all.average!.value - 80) < 1e-9)
        #expect(s.bySource["org.cuffd.gateway"]?.average?.value == 70)
        #expect(s.bySource["uid.1000"]?.maximum?.value == 100)
        #expect(s.bySource.count == 2)
    }

    @Test func dailyBucketsFollowTheCalendarAcrossDST() throws {
        let store = try Fixture.store()
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = berlin
        // 2026-03-28 … 2026-03-31 local; DST starts 2026-03-29 (a 23-hour day).
        let day0 = calendar.date(from: DateComponents(year: 2026, month: 3, day: 28))!
        var list: [QuantitySample] = []
        for d in 0..<3 {
            let midnight = calendar.date(byAdding: .day, value: d, to: day0)!
            list.append(Fixture.heartRate(Double(60 + d), at: midnight))  // first instant of the day
            list.append(Fixture.heartRate(Double(70 + d), at: calendar.date(byAdding: .day, value: 1, to: midnight)!.addingTimeInterval(-1)))
        }
        _ = try store.save(list, as: Fixture.daemon)
        let query = StatisticsCollectionQuery(type: .heartRate, options: [.minimum, .maximum, .mostRecent], anchorDate: day0, interval: .day, timeZone: berlin, start: day0, end: calendar.date(byAdding: .day, value: 3, to: day0)!)
        let buckets = try store.statisticsCollection(query, as: Fixture.daemon)
        try #require(buckets.count == 3)
        #expect(buckets.map { $0.all.minimum?.value } == [60, 61, 62])
        #expect(buckets.map { $0.all.maximum?.value } == [70, 71, 72])
        #expect(buckets.map { $0.all.mostRecent?.value } == [70, 71, 72])
        #expect(buckets[1].endDate.timeIntervalSince(buckets[1].startDate) == 23 * 3600)
    }

    @Test func weeklyAndMonthlyBucketsFromAnAnchor() throws {
        let store = try Fixture.store()
        let utc = TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let jan1 = calendar.date(from: DateComponents(year: 2026, month: 1, day: 1))!
        _ = try store.save((0..<90).map { Fixture.heartRate(Double($0), at: jan1.addingTimeInterval(Double($0) * 86_400 + 3600)) }, as: Fixture.daemon)
        let monthly = try store.statisticsCollection(StatisticsCollectionQuery(type: .heartRate, options: [.minimum, .maximum], anchorDate: jan1, interval: .month, timeZone: utc, start: jan1, end: calendar.date(from: DateComponents(year: 2026, month: 4, day: 1))!), as: Fixture.daemon)
        #expect(monthly.map(\.all.sampleCount) == [31, 28, 31])
        #expect(monthly.map { $0.all.minimum?.value } == [0, 31, 59])
        // Weeks anchored on a Thursday (Jan 1) starting from a mid-week date: the first bucket
        // starts at the anchor-aligned boundary before the range start.
        let weekly = try store.statisticsCollection(StatisticsCollectionQuery(type: .heartRate, options: [.minimum], anchorDate: jan1, interval: .week, timeZone: utc, start: jan1.addingTimeInterval(10 * 86_400), end: jan1.addingTimeInterval(21 * 86_400)), as: Fixture.daemon)
        #expect(weekly.first?.startDate == jan1.addingTimeInterval(7 * 86_400))
        #expect(weekly.map(\.all.sampleCount) == [7, 7])
    }
}

/// The rollup (per type, part, source and 15-minute slot, and per UTC day, maintained by triggers) must always agree
/// with a full scan of the samples, through inserts, replacements and deletions.
@Suite struct StatisticsRollupTests {
    /// Heart-rate values of two sources over five days, with and without a sensor contact code, readings with their
    /// pulse, replacements (some changing the contact code) and deletions.
    static func store() throws -> HealthStore {
        let store = try Fixture.store()
        try store.setAuthorization(AuthorizationGrant(uid: 1000, type: .heartRate, canShare: true, canRead: true), by: Fixture.root)
        var rng = SplitMix(seed: 42)
        for round in 0..<6 {
            var batch: [QuantitySample] = []
            for k in 0..<200 {
                let at = Fixture.t0.addingTimeInterval(Double(rng.next() % (5 * 86_400)))
                let sync = rng.next() % 3 == 0 ? "s\(rng.next() % 40)" : nil
                var metadata = HealthMetadata()
                let contact = rng.next() % 4
                if contact < 3 { metadata[.heartRateSensorContact] = .integer(Int64(contact)) }
                batch.append(Fixture.heartRate(Double(40 + rng.next() % 120), at: at, sync: sync, version: Int64(round * 1000 + k), metadata: metadata))
            }
            _ = try store.save(batch, as: round % 2 == 0 ? Fixture.daemon : Fixture.alice)
            _ = try store.saveBloodPressure(Fixture.reading(round), as: Fixture.daemon)
            // Insert then replace in one transaction: the replaced pulse is deleted after its insert.
            _ = try store.saveBloodPressure([Fixture.reading(100 + round, version: 0), Fixture.reading(100 + round, version: 1)], as: Fixture.daemon)
            let own = try store.samples(SampleQuery(type: .heartRate, predicate: SamplePredicate(sourceBundleIdentifiers: ["org.cuffd.gateway"], excludeCorrelated: true)), as: Fixture.daemon)
            _ = try store.delete(Array(own.map(\.uuid).shuffled(using: &rng).prefix(30)), as: Fixture.daemon)
        }
        return store
    }

    @Test func rollupAgreesWithAScanAfterInsertsReplacementsAndDeletes() throws {
        let store = try Self.store()
        let utc = TimeZone(identifier: "UTC")!
        let start = Fixture.t0.addingTimeInterval(-86_400)
        let everything = SamplePredicate(dateRange: DateRange(start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 4_000_000_000)))
        func collection(_ predicate: SamplePredicate) throws -> [HealthStatistics] {
            try store.statisticsCollection(StatisticsCollectionQuery(type: .heartRate, predicate: predicate, options: [.discrete, .separateBySource], anchorDate: start, interval: .day, timeZone: utc, start: start, end: start.addingTimeInterval(8 * 86_400)), as: Fixture.daemon)
        }
        let viaRollup = try collection(.all), viaScan = try collection(everything)
        #expect(viaRollup.map(\.all.sampleCount) == viaScan.map(\.all.sampleCount))
        #expect(viaRollup.reduce(0) { $0 + $1.all.sampleCount } == (try Fixture.count(store, .heartRate)))
        for (a, b) in zip(viaRollup, viaScan) {
            #expect(a.all.minimum == b.all.minimum && a.all.maximum == b.all.maximum)
            #expect(a.all.mostRecent == b.all.mostRecent && a.all.mostRecentDate == b.all.mostRecentDate)
            #expect(abs((a.all.average?.value ?? 0) - (b.all.average?.value ?? 0)) < 1e-9)
            #expect(a.bySource.mapValues(\.sampleCount) == b.bySource.mapValues(\.sampleCount))
            #expect(a.bySource.mapValues(\.maximum) == b.bySource.mapValues(\.maximum))
        }
        // White box: every rollup row equals a recomputation from the samples, every day row one from its slots.
        #expect(try Fixture.rollupMismatches(store) == Fixture.RollupMismatches())
        let total = try store.statistics(of: .heartRate, predicate: .all, options: .discrete, as: Fixture.daemon)
        let scanned = try store.statistics(of: .heartRate, predicate: everything, options: .discrete, as: Fixture.daemon)
        #expect(total.all.sampleCount == scanned.all.sampleCount && total.all.maximum == scanned.all.maximum && total.all.mostRecent == scanned.all.mostRecent)
    }

    @Test("One interval, from days, slots and samples, as a scan of the samples gives it", arguments: 0 ..< 4)
    func layersAgreeWithAScan(_ kind: Int) throws {
        let store = try Self.store()
        var filter = SamplePredicate()
        switch kind {
        case 1: filter.onlyCorrelated = true
        case 2: filter.excludeCorrelated = true
        case 3:
            filter.excludeCorrelated = true
            filter.metadata[MetadataKey.heartRateSensorContact.name] = [.integer(0), .integer(2)]
        default: break
        }
        var rng = SplitMix(seed: UInt64(kind))
        // Whole days and more, a few slots, parts of one slot, and everything.
        let spans: [Double] = [3 * 86_400 + 1234.5, 86_400, 5400, 600, 59, 20 * 86_400]
        for span in spans {
            let from = Fixture.t0.addingTimeInterval(Double(rng.next() % (4 * 86_400)) - 86_400 + 0.25)
            var layered = filter, scanned = filter
            // Both select the same samples, which start and end at once; only a range on start dates is summed from the rollup.
            layered.dateRange = DateRange(start: from, end: from.addingTimeInterval(span), strictStartDate: true)
            scanned.dateRange = DateRange(start: from, end: from.addingTimeInterval(span))
            let options: StatisticsOptions = [.discrete, .separateBySource]
            let a = try store.statistics(of: .heartRate, predicate: layered, options: options, as: Fixture.daemon)
            let b = try store.statistics(of: .heartRate, predicate: scanned, options: options, as: Fixture.daemon)
            #expect(a.all.sampleCount == b.all.sampleCount, "\(span) s from \(from)")
            #expect(a.all.minimum == b.all.minimum && a.all.maximum == b.all.maximum, "\(span) s from \(from)")
            #expect(a.all.mostRecentDate == b.all.mostRecentDate && a.all.mostRecent == b.all.mostRecent, "\(span) s from \(from)")
            #expect(abs((a.all.average?.value ?? 0) - (b.all.average?.value ?? 0)) < 1e-9)
            #expect(a.bySource.mapValues(\.sampleCount) == b.bySource.mapValues(\.sampleCount))
            #expect(a.bySource.mapValues(\.minimum) == b.bySource.mapValues(\.minimum))
        }
        let everything = try store.statistics(of: .heartRate, predicate: filter, options: .discrete, as: Fixture.daemon)
        var all = filter
        all.dateRange = DateRange(start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 4_000_000_000))
        let scanned = try store.statistics(of: .heartRate, predicate: all, options: .discrete, as: Fixture.daemon)
        #expect(everything.all.sampleCount == scanned.all.sampleCount && everything.all.sampleCount > 0)
        #expect(everything.all.maximum == scanned.all.maximum && everything.all.mostRecent == scanned.all.mostRecent)
    }
}
