/// What a statistics query computes (`HKStatisticsOptions`): discrete types support minimum,
/// maximum, average and most recent (`healthkit-hkquantityaggregationstyle*.md`).
public struct StatisticsOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Smallest value.
    public static let minimum = StatisticsOptions(rawValue: 1 << 0)
    /// Largest value.
    public static let maximum = StatisticsOptions(rawValue: 1 << 1)
    /// Arithmetic mean.
    public static let average = StatisticsOptions(rawValue: 1 << 2)
    /// Value of the sample with the latest start date.
    public static let mostRecent = StatisticsOptions(rawValue: 1 << 3)
    /// Also compute each statistic per source (`HKStatisticsOptionSeparateBySource`).
    public static let separateBySource = StatisticsOptions(rawValue: 1 << 4)

    /// Minimum, maximum, average and most recent.
    public static let discrete: StatisticsOptions = [.minimum, .maximum, .average, .mostRecent]
}
