import Foundation

/// A date interval predicate, as `HKQuery.predicateForSamples(withStart:end:options:)`.
///
/// Without options a sample matches when it overlaps the half-open range `[start, end)`:
/// `sample.end ≥ start` and `sample.start < end`. ``strictStartDate`` requires `sample.start ≥ start`,
/// ``strictEndDate`` requires `sample.end < end` (HealthKit `HKQueryOptions`).
public struct DateRange: Sendable, Hashable {
    /// Lower bound, nil for open.
    public var start: Date?
    /// Upper bound (exclusive), nil for open.
    public var end: Date?
    /// Require the sample to start inside the range.
    public var strictStartDate: Bool
    /// Require the sample to end inside the range.
    public var strictEndDate: Bool

    /// A range.
    public init(start: Date? = nil, end: Date? = nil, strictStartDate: Bool = false, strictEndDate: Bool = false) {
        self.start = start
        self.end = end
        self.strictStartDate = strictStartDate
        self.strictEndDate = strictEndDate
    }
}
