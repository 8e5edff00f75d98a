/// The quantity types a store knows; unknown identifiers are rejected with
/// ``HealthStoreError/unknownType(_:)`` (the store's contract: "unknown type … gets a typed error").
public struct QuantityTypeRegistry: Sendable {
    private var types: [String: QuantityType]

    /// The four types of docs/reference/HEALTH-STORE.md §1.
    public static let standard = QuantityTypeRegistry(types: [
        .bloodPressureSystolic, .bloodPressureDiastolic, .bloodPressureMean, .heartRate,
    ])

    /// A registry holding `types`.
    public init(types: [QuantityType]) {
        self.types = Dictionary(types.map { ($0.identifier, $0) }, uniquingKeysWith: { _, new in new })
    }

    /// Adds (or replaces) a type, returning the extended registry.
    public func registering(_ type: QuantityType) -> QuantityTypeRegistry {
        var copy = self
        copy.types[type.identifier] = type
        return copy
    }

    /// The type with `identifier`, or ``HealthStoreError/unknownType(_:)``.
    public func type(_ identifier: String) throws(HealthStoreError) -> QuantityType {
        guard let type = types[identifier] else { throw .unknownType(identifier) }
        return type
    }

    /// Whether `type` (with the same unit and style) is registered.
    public func contains(_ type: QuantityType) -> Bool { types[type.identifier] == type }

    /// All registered types.
    public var all: [QuantityType] { Array(types.values) }
}
