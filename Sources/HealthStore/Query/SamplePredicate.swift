import Foundation

/// Filters for sample, correlation and statistics queries (docs/reference/HEALTH-STORE.md §5: date range, sources,
/// device property, metadata key = values, UUIDs, "no correlation"), and the bounds of a page
/// (``SamplePosition``). All set filters must match.
public struct SamplePredicate: Sendable, Hashable {
    /// Date interval.
    public var dateRange: DateRange?
    /// Source bundle identifiers; nil for any.
    public var sourceBundleIdentifiers: Set<String>?
    /// Device ``HealthDevice/identity``; nil for any.
    public var deviceIdentity: String?
    /// Device ``HealthDevice/localIdentifier`` (HealthKit's `HKDevicePropertyKeyLocalIdentifier`; cuffd
    /// keeps the cuff's Bluetooth address there); nil for any.
    public var deviceLocalIdentifier: String?
    /// Metadata key → accepted values (any of them); every key must match.
    public var metadata: [String: Set<MetadataValue>]
    /// Only these UUIDs.
    public var uuids: Set<UUID>?
    /// Exclude samples that are members of (or linked to) a correlation.
    public var excludeCorrelated: Bool
    /// Only samples that are members of (or linked to) a correlation: a blood-pressure reading's pulse, not a
    /// heart-rate sensor's values.
    public var onlyCorrelated: Bool
    /// Leave out what is excluded on request (``MetadataKey/exclusionReason`` set): a correlation so marked, and the
    /// members and linked samples of one, which carry the mark too — what statistics and averages leave out.
    public var excludeExcluded: Bool
    /// Only samples before this position in start-date order.
    public var before: SamplePosition?
    /// Only samples after this position in start-date order.
    public var after: SamplePosition?

    /// A predicate; the default matches everything.
    public init(
        dateRange: DateRange? = nil, sourceBundleIdentifiers: Set<String>? = nil, deviceIdentity: String? = nil,
        metadata: [String: Set<MetadataValue>] = [:], uuids: Set<UUID>? = nil, excludeCorrelated: Bool = false,
        onlyCorrelated: Bool = false, deviceLocalIdentifier: String? = nil, before: SamplePosition? = nil, after: SamplePosition? = nil,
        excludeExcluded: Bool = false
    ) {
        self.dateRange = dateRange
        self.sourceBundleIdentifiers = sourceBundleIdentifiers
        self.deviceIdentity = deviceIdentity
        self.deviceLocalIdentifier = deviceLocalIdentifier
        self.metadata = metadata
        self.uuids = uuids
        self.excludeCorrelated = excludeCorrelated
        self.onlyCorrelated = onlyCorrelated
        self.excludeExcluded = excludeExcluded
        self.before = before
        self.after = after
    }

    /// Matches everything.
    public static let all = SamplePredicate()

    /// The instants a predicate may name, 0001-01-01 up to 10000-01-01 UTC (the years of ISO 8601's
    /// four-digit form): every one is a whole number of microseconds in the store's 64-bit columns.
    public static let supportedDates = Date(timeIntervalSince1970: -62_135_596_800) ..< Date(timeIntervalSince1970: 253_402_300_800)

    /// Whether nothing but sources is filtered (statistics can then be summed from the rollup table).
    var filtersOnlySources: Bool {
        self == SamplePredicate(sourceBundleIdentifiers: sourceBundleIdentifiers)
    }

    /// Every date the predicate names, for validation.
    var dates: [Date] {
        var dates = [dateRange?.start, dateRange?.end, before?.startDate, after?.startDate].compactMap { $0 }
        for values in metadata.values {
            for case .date(let date) in values { dates.append(date) }
        }
        return dates
    }

    /// This predicate further restricted to the samples of `people` (``MetadataKey/personIdentifier``): for clients
    /// whose read grant names people (docs/health-store.md, "Authorization").
    func restricted(toPeople people: Set<String>) -> SamplePredicate {
        var copy = self
        let key = MetadataKey.personIdentifier.name
        let named = Set(people.map(MetadataValue.string))
        copy.metadata[key] = metadata[key].map(named.intersection) ?? named
        return copy
    }

        /// This predicate further restricted to `source` (used for clients without read permission,
    /// which "see only the data that your app has written", docs/reference/HEALTH-STORE.md §6).
    func restricted(toSource source: String) -> SamplePredicate {
        var copy = self
        copy.sourceBundleIdentifiers = (sourceBundleIdentifiers ?? [source]).intersection([source])
        return copy
    }
}
