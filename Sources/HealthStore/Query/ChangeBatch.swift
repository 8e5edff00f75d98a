/// Integer change-feed position (`HKQueryAnchor(fromValue:)`): the change sequence of the last
/// object returned. Every saved object and every tombstone gets the next value of one counter,
/// incremented inside the writing transaction, so anchors are gap-free and commit-ordered and a
/// reader never skips a commit (docs/reference/HEALTH-STORE.md §14 trap 1; SQLite has one writer).
public struct QueryAnchor: Sendable, Hashable, Comparable, Codable {
    /// The raw value.
    public let rawValue: Int64
    /// An anchor from a stored value.
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (a: QueryAnchor, b: QueryAnchor) -> Bool { a.rawValue < b.rawValue }
}

/// One page of the anchored change feed (`HKAnchoredObjectQuery`; Health Connect `getChanges`).
public struct ChangeBatch: Sendable, Hashable {
    /// Objects added (or replacing others) since the anchor, in commit order.
    public let added: [HealthObject]
    /// Objects deleted or replaced since the anchor.
    public let deleted: [DeletedObject]
    /// Pass this to the next call.
    public let newAnchor: QueryAnchor
    /// More changes are waiting beyond ``newAnchor``.
    public let hasMore: Bool

    /// A batch.
    public init(added: [HealthObject], deleted: [DeletedObject], newAnchor: QueryAnchor, hasMore: Bool) {
        self.added = added
        self.deleted = deleted
        self.newAnchor = newAnchor
        self.hasMore = hasMore
    }
}
