/// Either kind of sample type; used where queries and the change feed take several types.
public enum HealthObjectType: Sendable, Hashable, CustomStringConvertible {
    /// A quantity type.
    case quantity(QuantityType)
    /// A correlation type.
    case correlation(CorrelationType)

    /// The stored identifier.
    public var identifier: String {
        switch self {
        case .quantity(let type): type.identifier
        case .correlation(let type): type.identifier
        }
    }

    /// The quantity types a client must be allowed to read to read this type as a whole (for a
    /// correlation: its required member types; optional members are filtered per type,
    /// HealthKit: `HKCorrelationQuery`). Saving checks the types actually present.
    public var authorizationTypes: [QuantityType] {
        switch self {
        case .quantity(let type): [type]
        case .correlation(let type): type.requiredMembers
        }
    }

    public var description: String { identifier }
}
