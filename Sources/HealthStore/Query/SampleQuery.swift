/// Sort order of sample and correlation queries (`HKSampleSortIdentifierStartDate` / `…EndDate`).
public enum SampleSort: Sendable, Hashable {
    /// By start or end date, oldest or newest first; ties by insertion order.
    case startDateAscending, startDateDescending, endDateAscending, endDateDescending
}

/// A sample query (`HKSampleQuery`): one type, a predicate, a sort and an optional limit.
public struct SampleQuery: Sendable, Hashable {
    /// The type to read.
    public var type: QuantityType
    /// Filters.
    public var predicate: SamplePredicate
    /// Order.
    public var sort: SampleSort
    /// Maximum number of results; nil for no limit.
    public var limit: Int?

    /// A query.
    public init(type: QuantityType, predicate: SamplePredicate = .all, sort: SampleSort = .startDateAscending, limit: Int? = nil) {
        self.type = type
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
    }
}

/// A correlation query (`HKCorrelationQuery`): correlations of one type matching a predicate on the
/// correlation, with the members visible to the caller.
public struct CorrelationQuery: Sendable, Hashable {
    /// The correlation type.
    public var type: CorrelationType
    /// Filters on the correlation object.
    public var predicate: SamplePredicate
    /// Order.
    public var sort: SampleSort
    /// Maximum number of results; nil for no limit.
    public var limit: Int?

    /// A query.
    public init(type: CorrelationType, predicate: SamplePredicate = .all, sort: SampleSort = .startDateAscending, limit: Int? = nil) {
        self.type = type
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
    }
}
