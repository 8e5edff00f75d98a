import Foundation
import GRDB

/// Statistics (docs/reference/HEALTH-STORE.md §5; `HKStatisticsQuery`, `HKStatisticsCollectionQuery`) computed in
/// SQL, from the rollup wherever the predicate filters by nothing but what the rollup keeps (``SQLiteRollupSelection``):
///
/// - **One interval** (`HKStatisticsQuery`) is cut in layers: whole UTC days from `sample_rollup_day`, the whole
///   15-minute slots around them from `sample_rollup`, and the samples of the partial slots at either end from
///   `sample` — a few thousand rows for years of samples.
/// - **Buckets** (`HKStatisticsCollectionQuery`) come in as a JSON array of boundaries, paired with `lead()`; when
///   every boundary falls on a slot and the predicate names no dates, they are summed from `sample_rollup`.
///
/// Otherwise each bucket scans its range of the covering index `sample_type_start (type_id, start_at)`.
/// Samples fall in the bucket containing their start date. "Most recent" is the value of the sample with the
/// latest start (SQLite's bare-column rule for a single `max()` aggregate).
extension SQLiteEngine {
    public func statistics(of type: QuantityType, predicate: SamplePredicate, options: StatisticsOptions, boundaries: [Date]) throws(HealthStoreError) -> [HealthStatistics] {
        guard boundaries.count >= 2 else { return [] }
        return try read { db in
            let bucketRanges = (0..<(boundaries.count - 1)).map { (boundaries[$0], boundaries[$0 + 1]) }
            guard let typeID = try Self.typeID(db, type.identifier) else {
                return bucketRanges.map { Self.empty(type, $0.0, $0.1) }
            }
            let selection = SQLiteRollupSelection(predicate)
            let (totals, perSource) = if let selection, bucketRanges.count == 1 {
                try Self.layered(db, typeID, selection, predicate, options, bucketRanges[0])
            } else {
                try Self.bucketed(db, typeID, selection, predicate, options, boundaries)
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
        HealthStatistics(type: type, startDate: start, endDate: end, all: .none, bySource: [:])
    }

    private typealias Aggregates = (totals: [Int: Aggregate], perSource: [Int: [String: Aggregate]])

    /// One interval, in layers of days, slots and samples (see the extension's note).
    private static func layered(
        _ db: Database, _ typeID: Int64, _ selection: SQLiteRollupSelection, _ predicate: SamplePredicate, _ options: StatisticsOptions,
        _ range: (Date, Date)
    ) throws -> Aggregates {
        let slot = SQLiteSchema.rollupSlotMicros, day = slot * SQLiteSchema.rollupSlotsPerDay
        var lo = SQLiteCoding.micros(range.0), hi = SQLiteCoding.micros(range.1)
        if let from = selection.from { lo = max(lo, from) }
        if let before = selection.before { hi = min(hi, before) }
        var layers: [(Level, Int64, Int64)] = []
        let slotsFrom = ceiling(lo, slot), slotsBefore = floor(hi, slot)
        if slotsFrom >= slotsBefore {
            if lo < hi { layers.append((.samples, lo, hi)) }
        } else {
            if lo < slotsFrom { layers.append((.samples, lo, slotsFrom)) }
            let daysFrom = ceiling(slotsFrom, day), daysBefore = floor(slotsBefore, day)
            if daysFrom >= daysBefore {
                layers.append((.slots, slotsFrom / slot, slotsBefore / slot))
            } else {
                if slotsFrom < daysFrom { layers.append((.slots, slotsFrom / slot, daysFrom / slot)) }
                layers.append((.days, daysFrom / day, daysBefore / day))
                if daysBefore < slotsBefore { layers.append((.slots, daysBefore / slot, slotsBefore / slot)) }
            }
            if slotsBefore < hi { layers.append((.samples, slotsBefore, hi)) }
        }
        var result: Aggregates = ([:], [:])
        let hasSeries = try SQLiteEngine.hasSeries(db, typeID)
        for (level, from, before) in layers {
            let filter = level == .samples
                ? SQLitePredicate(SQLiteRollupSelection.withoutDates(predicate), alias: level.alias)
                : rollupFilter(selection, alias: level.alias)
            let condition = "\(level.alias).type_id = ? AND \(level.alias).\(level.position) >= ? AND \(level.alias).\(level.position) < ? AND \(filter.sql)"
            let arguments: StatementArguments = [typeID, from, before] + filter.arguments
            let table = level == .samples && hasSeries
                ? SQLiteSchema.statisticsSamples(
                    rows: SQLiteSchema.seriesRows(typeID, from: from, before: before), boundaries: [from, before],
                    whole: SQLiteEngine.filtersRows(predicate), hint: "")
                : nil
            for grouped in options.contains(.separateBySource) ? [false, true] : [false] {
                try collect(db, level.aggregates(grouped, latest: false, where: condition, from: table), arguments, into: &result) { $0.add($1) }
                if options.contains(.mostRecent) {
                    try collect(db, level.aggregates(grouped, latest: true, where: condition, from: table), arguments, into: &result) { $0.addLatest($1) }
                }
            }
        }
        return result
    }

    /// Buckets `[boundaries[i], boundaries[i+1])`, from slots when the predicate and the boundaries allow it.
    private static func bucketed(
        _ db: Database, _ typeID: Int64, _ selection: SQLiteRollupSelection?, _ predicate: SamplePredicate, _ options: StatisticsOptions,
        _ boundaries: [Date]
    ) throws -> Aggregates {
        let slot = SQLiteSchema.rollupSlotMicros
        let micros = boundaries.map(SQLiteCoding.micros)
        let rollup = selection.flatMap { $0.from == nil && $0.before == nil && micros.allSatisfy { $0 % slot == 0 } ? $0 : nil }
        let level = rollup == nil ? Level.samples : .slots
        let json = "[" + micros.map { String(rollup == nil ? $0 : $0 / slot) }.joined(separator: ",") + "]"
        var filter = rollup.map { rollupFilter($0, alias: level.alias) } ?? SQLitePredicate(predicate, alias: level.alias)
        // Series rows (migration v13) of the buckets' range, whose values are read with `sample`'s rows; the range is
        // also written as constants, so that SQLite takes it into `sample`'s arm and stays on `sample_type_start`.
        var table: String?
        if rollup == nil, let first = micros.first, let last = micros.last, try SQLiteEngine.hasSeries(db, typeID) {
            let dates = [predicate.dateRange?.start, predicate.dateRange?.end].compactMap { $0.map(SQLiteCoding.micros) }
            table = SQLiteSchema.statisticsSamples(
                rows: SQLiteSchema.seriesRows(typeID, from: first, before: last), boundaries: micros + dates,
                whole: SQLiteEngine.filtersRows(predicate), hint: SQLitePredicate.personIndexHint(predicate))
            filter.clauses.append("s.start_at >= \(first) AND s.start_at < \(last)")
        }
        let condition = """
            b.hi IS NOT NULL AND \(level.alias).type_id = ? AND \(level.alias).\(level.position) >= b.lo AND \(level.alias).\(level.position) < b.hi
            AND \(filter.sql)
            """
        let arguments: StatementArguments = [json, typeID] + filter.arguments
        /// One aggregate query over all buckets.
        func sql(_ grouped: Bool, latest: Bool) -> String {
            """
            WITH b(i, lo, hi) AS (
                SELECT CAST(key AS INTEGER), value, lead(value) OVER (ORDER BY CAST(key AS INTEGER)) FROM json_each(?)
            )
            \(level.aggregates(grouped, latest: latest, where: condition, bucketed: true, hint: rollup == nil ? SQLitePredicate.personIndexHint(predicate) : "", from: table))
            """
        }
        var result: Aggregates = ([:], [:])
        for grouped in options.contains(.separateBySource) ? [false, true] : [false] {
            try collect(db, sql(grouped, latest: false), arguments, into: &result) { $0.add($1) }
            if options.contains(.mostRecent) {
                try collect(db, sql(grouped, latest: true), arguments, into: &result) { $0.addLatest($1) }
            }
        }
        return result
    }

    /// The rollup rows of `selection`'s parts and sources, on the table aliased `alias`.
    private static func rollupFilter(_ selection: SQLiteRollupSelection, alias: String) -> SQLitePredicate {
        var filter = SQLitePredicate(SamplePredicate(sourceBundleIdentifiers: selection.sources), alias: alias)
        filter.clauses.append("\(alias).part IN (\(SQLitePredicate.marks(selection.parts.count)))")
        filter.arguments += StatementArguments(selection.parts)
        return filter
    }

    /// Runs an aggregate query whose rows are (bucket, source or NULL, values…) and applies each to its aggregate.
    private static func collect(
        _ db: Database, _ sql: String, _ arguments: StatementArguments, into result: inout Aggregates, _ apply: (inout Aggregate, Row) -> Void
    ) throws {
        for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
            let i: Int = row[0]
            if let source: String = row[1] {
                apply(&result.perSource[i, default: [:]][source, default: Aggregate()], row)
            } else {
                apply(&result.totals[i, default: Aggregate()], row)
            }
        }
    }

    /// `floor(x / unit) × unit`.
    private static func floor(_ x: Int64, _ unit: Int64) -> Int64 {
        (x >= 0 ? x / unit : -((-x - 1) / unit) - 1) * unit
    }

    /// `ceil(x / unit) × unit`.
    private static func ceiling(_ x: Int64, _ unit: Int64) -> Int64 {
        -floor(-x, unit)
    }
}

/// Where statistics are summed from: samples, or the rollup's slots or days.
private enum Level {
    case samples, slots, days

    var alias: String {
        switch self {
        case .samples: "s"
        case .slots, .days: "r"
        }
    }

    var table: String {
        switch self {
        case .samples: "sample s"
        case .slots: "sample_rollup r"
        case .days: "sample_rollup_day r"
        }
    }

    /// The column the range is on.
    var position: String {
        switch self {
        case .samples: "start_at"
        case .slots: "slot"
        case .days: "day"
        }
    }

    /// A query of rows (bucket, source or NULL, count, min, max, sum) — or with `latest` (bucket, source or NULL,
    /// latest start, its value) — over the rows `condition` selects, per source when `grouped`; `bucketed`: joined
    /// with the buckets `b`, one row per bucket, else bucket 0; `hint` follows the table (``SQLitePredicate/personIndexHint(_:)``);
    /// `table`, when given, is read instead of the level's table and hint: ``SQLiteSchema/statisticsSamples(rows:boundaries:whole:hint:)``,
    /// summed as the rollup is.
    func aggregates(_ grouped: Bool, latest: Bool, where condition: String, bucketed: Bool = false, hint: String = "", from table: String? = nil) -> String {
        let values = switch (self, latest, table) {
        case (.samples, false, nil): "count(s.value), min(s.value), max(s.value), sum(s.value)"
        case (.samples, true, nil): "max(s.start_at), s.value"
        case (_, false, _): "sum(\(alias).n), min(\(alias).lo), max(\(alias).hi), sum(\(alias).total)"
        case (_, true, _): "max(\(alias).last_at), \(alias).last_value"
        }
        let source = grouped ? "(SELECT bundle_identifier FROM source WHERE id = \(alias).source_id)" : "NULL"
        let groups: [String] = (bucketed ? ["b.i"] : []) + (grouped ? ["\(alias).source_id"] : [])
        return """
            SELECT \(bucketed ? "b.i" : "0"), \(source), \(values)
            FROM \(bucketed ? "b CROSS JOIN " : "")\(table ?? self.table + hint)
            WHERE \(condition)
            \(groups.isEmpty ? "" : "GROUP BY " + groups.joined(separator: ", "))
            """
    }
}

/// What one bucket's rows add up to, from samples or rollup rows alike.
private struct Aggregate {
    var count = 0
    var total = 0.0
    var minimum: Double?
    var maximum: Double?
    var mostRecent: Double?
    var mostRecentAt: Int64?

    /// Adds a row (…, count, min, max, sum); an aggregate over no rows adds nothing.
    mutating func add(_ row: Row) {
        let n: Int = row[2] ?? 0
        guard n > 0 else { return }
        count += n
        total += row[5] ?? 0
        let lo: Double = row[3], hi: Double = row[4]
        minimum = Swift.min(minimum ?? lo, lo)
        maximum = Swift.max(maximum ?? hi, hi)
    }

    /// Adds a row (…, latest start, its value), the later one winning.
    mutating func addLatest(_ row: Row) {
        guard let at: Int64 = row[2], at > (mostRecentAt ?? .min) else { return }
        mostRecentAt = at
        mostRecent = row[3]
    }

    func values(_ type: QuantityType, _ options: StatisticsOptions) -> HealthStatistics.Values {
        let q = { (v: Double?) in v.map { HealthQuantity(unit: type.canonicalUnit, doubleValue: $0) } }
        return HealthStatistics.Values(
            sampleCount: count,
            minimum: options.contains(.minimum) ? q(minimum) : nil,
            maximum: options.contains(.maximum) ? q(maximum) : nil,
            average: options.contains(.average) && count > 0 ? q(total / Double(count)) : nil,
            mostRecent: options.contains(.mostRecent) ? q(mostRecent) : nil,
            mostRecentDate: options.contains(.mostRecent) ? mostRecentAt.map(SQLiteCoding.date) : nil)
    }
}
