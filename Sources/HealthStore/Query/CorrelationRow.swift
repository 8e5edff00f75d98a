import Foundation

/// What a flat read of correlations returns for each one (``CorrelationRow``): the values of its members and linked
/// samples of the types in ``values``, and the metadata values of the keys in ``metadata``, in that order.
///
/// A flat read builds no ``Correlation``, no ``QuantitySample`` and no ``HealthMetadata``: one SQL row per
/// correlation, metadata taken from the stored JSON by SQLite itself. It serves readers that turn thousands of
/// correlations into rows at once — cuffd's pages, exports, forwarders (docs/health-store.md, "Flat reads").
public struct CorrelationColumns: Sendable, Hashable {
    /// Member or linked-sample types, each read as the value of the correlation's first sample of that type.
    public var values: [QuantityType]
    /// Metadata keys of the correlation itself.
    public var metadata: [MetadataKey]

    public init(values: [QuantityType], metadata: [MetadataKey]) {
        self.values = values
        self.metadata = metadata
    }
}

/// One correlation read flat (``CorrelationColumns``). A value is nil when the correlation has no sample of its
/// type that the reader may see — the rule of ``HealthStore/correlations(_:as:)``: members of types the client
/// may not read are left out unless it wrote them.
public struct CorrelationRow: Sendable, Hashable {
    public var uuid: UUID
    public var startDate: Date
    /// Per ``CorrelationColumns/values``, in each type's canonical unit.
    public var values: [Double?]
    /// Per ``CorrelationColumns/metadata``, of the key's kind.
    public var metadata: [MetadataValue?]
    public var syncIdentifier: String?
    public var syncVersion: Int64?
    public var device: HealthDevice?

    /// The correlation's place in start-date order.
    public var position: SamplePosition { SamplePosition(startDate: startDate, uuid: uuid) }
}

/// One page of the change feed of one correlation type read flat (``HealthStore/correlationRowChanges``).
public struct CorrelationRowBatch: Sendable, Hashable {
    /// Correlations added or replacing others since the anchor, in commit order.
    public let added: [CorrelationRow]
    /// Objects deleted or replaced since the anchor.
    public let deleted: [DeletedObject]
    /// Pass this to the next call.
    public let newAnchor: QueryAnchor
    /// More changes are waiting beyond ``newAnchor``.
    public let hasMore: Bool
}
