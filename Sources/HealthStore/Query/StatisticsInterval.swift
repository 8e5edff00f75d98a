import Foundation

/// Bucket length of a statistics collection (`HKStatisticsCollectionQuery`'s `intervalComponents`),
/// limited to the calendar units cuffd needs.
public enum StatisticsInterval: Sendable, Hashable {
    /// Calendar days (23 or 25 hours across DST), calendar weeks, calendar months.
    case day, week, month

    var component: Calendar.Component {
        switch self {
        case .day: .day
        case .week: .weekOfYear
        case .month: .month
        }
    }
}

/// A bucketed statistics query: buckets of ``interval`` aligned on ``anchorDate`` in ``timeZone``
/// (calendar arithmetic, so days are 23 or 25 hours across DST), covering `[start, end)`.
public struct StatisticsCollectionQuery: Sendable, Hashable {
    /// The quantity type.
    public var type: QuantityType
    /// Filters (by source only keeps the query on the rollup).
    public var predicate: SamplePredicate
    /// Statistics to compute.
    public var options: StatisticsOptions
    /// Any bucket boundary, e.g. a local midnight.
    public var anchorDate: Date
    /// Bucket length.
    public var interval: StatisticsInterval
    /// Time zone of the calendar arithmetic.
    public var timeZone: TimeZone
    /// First instant of interest; the first bucket starts at or before it.
    public var start: Date
    /// End of interest (exclusive).
    public var end: Date

    /// A query.
    public init(type: QuantityType, predicate: SamplePredicate = .all, options: StatisticsOptions, anchorDate: Date, interval: StatisticsInterval, timeZone: TimeZone, start: Date, end: Date) {
        self.type = type
        self.predicate = predicate
        self.options = options
        self.anchorDate = anchorDate
        self.interval = interval
        self.timeZone = timeZone
        self.start = start
        self.end = end
    }

    /// Bucket boundaries `[b0, b1, …, bn]` with `b0 ≤ start < b1` and `bn−1 < end ≤ bn`.
    func boundaries() -> [Date] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        func step(_ n: Int) -> Date {
            calendar.date(byAdding: interval.component, value: n, to: anchorDate) ?? anchorDate
        }
        // Find n with step(n) ≤ start < step(n+1), starting from an estimate.
        let approxSeconds: Double = switch interval {
        case .day: 86_400
        case .week: 604_800
        case .month: 2_629_746
        }
        var n = Int((start.timeIntervalSince(anchorDate) / approxSeconds).rounded(.down))
        while step(n) > start { n -= 1 }
        while step(n + 1) <= start { n += 1 }
        var result = [step(n)]
        while let last = result.last, last < end {
            n += 1
            result.append(step(n))
        }
        return result
    }
}
