import Foundation

/// Aggregated values over one interval (`HKStatistics`), in the type's canonical unit.
public struct HealthStatistics: Sendable, Hashable {
    /// The values of one group (all sources, or one source).
    public struct Values: Sendable, Hashable {
        /// Number of samples aggregated.
        public let sampleCount: Int
        /// Smallest value, if requested and any sample.
        public let minimum: HealthQuantity?
        /// Largest value.
        public let maximum: HealthQuantity?
        /// Arithmetic mean.
        public let average: HealthQuantity?
        /// Value of the sample with the latest start date.
        public let mostRecent: HealthQuantity?
        /// Start date of that sample.
        public let mostRecentDate: Date?

        /// Values.
        public init(sampleCount: Int, minimum: HealthQuantity?, maximum: HealthQuantity?, average: HealthQuantity?, mostRecent: HealthQuantity?, mostRecentDate: Date?) {
            self.sampleCount = sampleCount
            self.minimum = minimum
            self.maximum = maximum
            self.average = average
            self.mostRecent = mostRecent
            self.mostRecentDate = mostRecentDate
        }

        /// No sample: a count of 0 and no values.
        public static let none = Values(sampleCount: 0, minimum: nil, maximum: nil, average: nil, mostRecent: nil, mostRecentDate: nil)
    }

    /// The quantity type.
    public let type: QuantityType
    /// Interval start (inclusive).
    public let startDate: Date
    /// Interval end (exclusive).
    public let endDate: Date
    /// Over all visible sources.
    public let all: Values
    /// Per source bundle identifier, when ``StatisticsOptions/separateBySource`` was requested.
    public let bySource: [String: Values]

    /// Statistics.
    public init(type: QuantityType, startDate: Date, endDate: Date, all: Values, bySource: [String: Values]) {
        self.type = type
        self.startDate = startDate
        self.endDate = endDate
        self.all = all
        self.bySource = bySource
    }
}
