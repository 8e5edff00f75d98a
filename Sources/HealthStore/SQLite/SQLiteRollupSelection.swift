import Foundation

/// The rollup rows holding the samples a predicate selects, when it filters by nothing the rollup does not keep
/// (migrations v6, v9): sources, belonging to a correlation or not, the ``MetadataKey/heartRateSensorContact`` code,
/// being excluded on request or not, and a range of start dates. Any other filter needs the samples themselves: nil.
struct SQLiteRollupSelection {
    /// The rollup parts (``SQLiteSchema/rollupPart(correlated:contact:excluded:)``) of the selected samples.
    var parts: [Int64]
    /// Source bundle identifiers; nil for any.
    var sources: Set<String>?
    /// Start dates from, in microseconds; nil for open.
    var from: Int64?
    /// Start dates before, in microseconds; nil for open.
    var before: Int64?

    init?(_ predicate: SamplePredicate) {
        var rest = predicate
        sources = rest.sourceBundleIdentifiers
        rest.sourceBundleIdentifiers = nil
        var correlated: [Bool] = [false, true]
        if rest.excludeCorrelated { correlated.removeAll { $0 } }
        if rest.onlyCorrelated { correlated.removeAll { !$0 } }
        (rest.excludeCorrelated, rest.onlyCorrelated) = (false, false)
        let excluded = rest.excludeExcluded ? [false] : [false, true]
        rest.excludeExcluded = false
        var contacts: [MetadataValue?] = [nil] + (0 ... 2).map { .integer($0) }
        if let wanted = rest.metadata.removeValue(forKey: MetadataKey.heartRateSensorContact.name) {
            // A value of another kind may still equal a code in SQL (2.0 = 2): left to the samples.
            guard wanted.allSatisfy({ if case .integer = $0 { true } else { false } }) else { return nil }
            contacts = contacts.filter { $0.map(wanted.contains) ?? false }
        }
        // The rollup is by start date: a range that compares end dates needs the samples.
        if let range = rest.dateRange {
            guard range.start == nil || range.strictStartDate, range.end == nil || !range.strictEndDate else { return nil }
            from = range.start.map(SQLiteCoding.micros)
            before = range.end.map(SQLiteCoding.micros)
            rest.dateRange = nil
        }
        guard rest == SamplePredicate() else { return nil }
        parts = excluded.flatMap { isExcluded in
            correlated.flatMap { isCorrelated in
                contacts.map { SQLiteSchema.rollupPart(correlated: isCorrelated, contact: $0, excluded: isExcluded) }
            }
        }
    }

    /// The predicate without its date range: what the samples of a partial slot are filtered by.
    static func withoutDates(_ predicate: SamplePredicate) -> SamplePredicate {
        var copy = predicate
        copy.dateRange = nil
        return copy
    }
}
