/// What of one type's changes a client sees in the change feed (docs/health-store.md, "Authorization"): objects and
/// tombstones of one source (its own, when it may not read the type) or of every source, and of the people a read
/// grant names or of everyone.
public struct ChangeScope: Sendable, Hashable {
    /// The source bundle identifier; nil for every source.
    public var source: String?
    /// The people (``MetadataKey/personIdentifier``); nil for everyone, objects of no person included.
    public var people: Set<String>?

    public init(source: String? = nil, people: Set<String>? = nil) {
        self.source = source
        self.people = people
    }

    /// Every change of the type.
    public static let everything = ChangeScope()
}
