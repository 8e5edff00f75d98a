import Foundation
import GRDB

/// Statistics (docs/reference/HEALTH-STORE.md §5; `HKStatisticsQuery`, `HKStatisticsCollectionQuery`) computed in
/// SQL: buckets come in as a JSON array of boundaries, paired with `lead()`. When the predicate
/// filters at most by source and every boundary falls on a 15-minute UTC slot, buckets are summed
/// from `sample_rollup` (migration v2); otherwise each bucket scans its range of the covering index
/// `sample_type_start (type_id, start_at)`.
/// Samples fall in the bucket containing their start date. "Most recent" is the value of the
/// sample with the latest start (SQLite's bare-column rule for a single `max()` aggregate).
extension SQLiteEngine {
    public func statistics(of type: QuantityType, predicate: SamplePredicate, options: StatisticsOptions, boundaries: [Date]) throws(HealthStoreError) -> [HealthStatistics] {
        guard boundaries.count >= 2 else { return [] }
        return try read { db in
            let bucketRanges = (0..<(boundaries.count - 1)).map { (boundaries[$0], boundaries[$0 + 1]) }
            guard let typeID = try Self.typeID(db, type.identifier) else {
                return bucketRanges.map { Self.empty(type, $0.0, $0.1) }
            }
            let slot = SQLiteSchema.rollupSlotMicros
            let micros = boundaries.map(SQLiteCoding.micros)
            let rollup = predicate.filtersOnlySources && micros.allSatisfy { $0 % slot == 0 }
            let json = "[" + micros.map { String(rollup ? $0 / slot : $0) }.joined(separator: ",") + "]"
            let filter = SQLitePredicate(predicate, alias: rollup ? "r" : "s")
            let arguments: StatementArguments = [json, typeID] + filter.arguments
            /// One aggregate query over all buckets, optionally grouped by source as well.
            func sql(_ aggregates: String, bySource: Bool) -> String {
                let t = rollup ? "r" : "s"
                return """
                WITH b(i, lo, hi) AS (
                    SELECT CAST(key AS INTEGER), value, lead(value) OVER (ORDER BY CAST(key AS INTEGER)) FROM json_each(?)
                )
                SELECT b.i, \(bySource ? "(SELECT bundle_identifier FROM source WHERE id = \(t).source_id)" : "NULL"), \(aggregates)
                FROM b CROSS JOIN \(rollup ? "sample_rollup r" : "sample s")
                WHERE b.hi IS NOT NULL AND \(t).type_id = ?
                  AND \(rollup ? "r.slot >= b.lo AND r.slot < b.hi" : "s.start_at >= b.lo AND s.start_at < b.hi")
                  AND \(filter.sql)
                GROUP BY b.i\(bySource ? ", \(t).source_id" : "")
                """
            }
            let basic = rollup ? "sum(r.n), min(r.lo), max(r.hi), sum(r.total) / sum(r.n)" : "count(s.value), min(s.value), max(s.value), avg(s.value)"
            let latest = rollup ? "max(r.last_at), r.last_value" : "max(s.start_at), s.value"
            var totals: [Int: Aggregate] = [:]
            var perSource: [Int: [String: Aggregate]] = [:]
            func collect(_ sql: String, _ apply: (inout Aggregate, Row) -> Void) throws {
                for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
                    let i: Int = row[0]
                    if let source: String = row[1] {
                        apply(&perSource[i, default: [:]][source, default: Aggregate()], row)
                    } else {
                        apply(&totals[i, default: Aggregate()], row)
                    }
                }
            }
            for grouped in options.contains(.separateBySource) ? [false, true] : [false] {
                try collect(sql(basic, bySource: grouped)) { aggregate, row in
                    aggregate.count = row[2]
                    aggregate.minimum = row[3]
                    aggregate.maximum = row[4]
                    aggregate.average = row[5]
                }
                if options.contains(.mostRecent) {
                    try collect(sql(latest, bySource: grouped)) { aggregate, row in
                        aggregate.mostRecentAt = row[2]
                        aggregate.mostRecent = row[3]
                    }
                }
            }
            return bucketRanges.enumerated().map { i, range in
                HealthStatistics(
                    type: type, startDate: range.0, endDate: range.1,
                    all: (totals[i] ?? Aggregate()).values(type, options),
                    bySource: (perSource[i] ?? [:]).mapValues { $0.values(type, options) })
            }
        }
    }

    private static func empty(_ type: QuantityType, _ start: Date, _ end: Date) -> HealthStatistics {
        HealthStatistics(type: type, startDate: start, endDate: end, all: Aggregate().values(type, []), bySource: [:])
    }
}

private struct Aggregate {
    var count = 0
    var minimum: Double?
    var maximum: Double?
    var average: Double?
    var mostRecent: Double?
    var mostRecentAt: Int64?

    func values(_ type: QuantityType, _ options: StatisticsOptions) -> HealthStatistics.Values {
        let q = { (v: Double?) in v.map { HealthQuantity(unit: type.canonicalUnit, doubleValue: $0) } }
        return HealthStatistics.Values(
            sampleCount: count,
            minimum: options.contains(.minimum) ? q(minimum) : nil,
            maximum: options.contains(.maximum) ? q(maximum) : nil,
            average: options.contains(.average) ? q(average) : nil,
            mostRecent: options.contains(.mostRecent) ? q(mostRecent) : nil,
            mostRecentDate: options.contains(.mostRecent) ? mostRecentAt.map(SQLiteCoding.date) : nil)
    }
}
