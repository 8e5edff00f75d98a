import Foundation

/// A sample's place in start-date order — its start date, then its insertion order — for paging a query
/// without an offset: ``SamplePredicate/before`` and ``SamplePredicate/after`` select what lies on one side
/// of it, so each page costs a seek on the index `sample_type_start`, however deep the page
/// (docs/health-store.md, "Paging").
///
/// The tie-break is the sample's insertion order, found through its UUID. When the sample a position names
/// was deleted since, samples sharing its exact start date are all taken as lying after it.
public struct SamplePosition: Sendable, Hashable {
    /// The sample's start date.
    public var startDate: Date
    /// The sample's UUID.
    public var uuid: UUID

    /// A position.
    public init(startDate: Date, uuid: UUID) {
        self.startDate = startDate
        self.uuid = uuid
    }

    /// The position of a correlation.
    public init(_ correlation: Correlation) {
        self.init(startDate: correlation.startDate, uuid: correlation.uuid)
    }

    public init(_ sample: QuantitySample) {
        self.init(startDate: sample.startDate, uuid: sample.uuid)
    }
}
