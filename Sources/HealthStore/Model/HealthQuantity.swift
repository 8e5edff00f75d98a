/// An amount with a unit, as HealthKit's `HKQuantity` (HealthKit: `HKQuantity`).
///
/// Values are `Double`, as HealthKit stores even counts as `Double` (docs/reference/HEALTH-STORE.md §1).
public struct HealthQuantity: Sendable, Hashable, CustomStringConvertible {
    /// The unit the value was given in.
    public let unit: HealthUnit
    /// The amount in ``unit``.
    public let value: Double

    /// A quantity of `value` in `unit`.
    public init(unit: HealthUnit, doubleValue value: Double) {
        self.unit = unit
        self.value = value
    }

    /// A quantity whose unit is parsed from a HealthKit or UCUM string (see ``HealthUnit``).
    public init(unit string: String, doubleValue value: Double) throws(HealthStoreError) {
        self.init(unit: try HealthUnit(parsing: string), doubleValue: value)
    }

    /// The value expressed in `target`; throws ``HealthStoreError/incompatibleUnit(unit:expected:)``
    /// across dimensions (HealthKit raises an exception there; cuffd returns a typed error).
    public func doubleValue(for target: HealthUnit) throws(HealthStoreError) -> Double {
        try unit.convert(value, to: target)
    }

    /// Whether the quantity can be expressed in `target`.
    public func isCompatible(with target: HealthUnit) -> Bool { unit.isCompatible(with: target) }

    public var description: String { "\(value) \(unit.symbol)" }
}
