import Foundation

/// Filters for sample, correlation and statistics queries (HEALTH-STORE.md §5: date range, sources,
/// device property, metadata key = values, UUIDs, "no correlation"). All set filters must match.
public struct SamplePredicate: Sendable, Hashable {
    /// Date interval.
    public var dateRange: DateRange?
    /// Source bundle identifiers; nil for any.
    public var sourceBundleIdentifiers: Set<String>?
    /// Device ``HealthDevice/identity``; nil for any.
    public var deviceIdentity: String?
    /// Metadata key → accepted values (any of them); every key must match.
    public var metadata: [String: Set<MetadataValue>]
    /// Only these UUIDs.
    public var uuids: Set<UUID>?
    /// Exclude samples that are members of (or linked to) a correlation.
    public var excludeCorrelated: Bool

    /// A predicate; the default matches everything.
    public init(
        dateRange: DateRange? = nil, sourceBundleIdentifiers: Set<String>? = nil, deviceIdentity: String? = nil,
        metadata: [String: Set<MetadataValue>] = [:], uuids: Set<UUID>? = nil, excludeCorrelated: Bool = false
    ) {
        self.dateRange = dateRange
        self.sourceBundleIdentifiers = sourceBundleIdentifiers
        self.deviceIdentity = deviceIdentity
        self.metadata = metadata
        self.uuids = uuids
        self.excludeCorrelated = excludeCorrelated
    }

    /// Matches everything.
    public static let all = SamplePredicate()

    /// This predicate further restricted to `source` (used for clients without read permission,
    /// which "see only the data that your app has written", HEALTH-STORE.md §6).
    func restricted(toSource source: String) -> SamplePredicate {
        var copy = self
        copy.sourceBundleIdentifiers = (sourceBundleIdentifiers ?? [source]).intersection([source])
        return copy
    }
}
