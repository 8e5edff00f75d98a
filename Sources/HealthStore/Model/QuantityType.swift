/// A kind of quantity sample, as HealthKit's `HKQuantityType` (docs/reference/HEALTH-STORE.md §1 table).
///
/// Types are values identified by ``identifier``; the built-in ones are static members and a
/// ``QuantityTypeRegistry`` makes further types known to a store.
public struct QuantityType: Sendable, Hashable, CustomStringConvertible {
    /// Stable identifier, stored in the database (e.g. `bloodPressureSystolic`).
    public let identifier: String
    /// The unit values are stored in; inputs are converted to it once, at save.
    public let canonicalUnit: HealthUnit
    /// How samples combine in statistics.
    public let aggregationStyle: AggregationStyle

    /// A type; register it in a ``QuantityTypeRegistry`` before saving samples of it.
    public init(identifier: String, canonicalUnit: HealthUnit, aggregationStyle: AggregationStyle) {
        self.identifier = identifier
        self.canonicalUnit = canonicalUnit
        self.aggregationStyle = aggregationStyle
    }

    /// `HKQuantityTypeIdentifierBloodPressureSystolic`; mmHg; LOINC 8480-6, MDC 150021.
    public static let bloodPressureSystolic = QuantityType(identifier: "bloodPressureSystolic", canonicalUnit: .millimeterOfMercury, aggregationStyle: .discreteArithmetic)
    /// `HKQuantityTypeIdentifierBloodPressureDiastolic`; mmHg; LOINC 8462-4, MDC 150022.
    public static let bloodPressureDiastolic = QuantityType(identifier: "bloodPressureDiastolic", canonicalUnit: .millimeterOfMercury, aggregationStyle: .discreteArithmetic)
    /// Mean arterial pressure, a cuffd extension (no HealthKit type); mmHg; LOINC 8478-0, MDC 150023.
    public static let bloodPressureMean = QuantityType(identifier: "bloodPressureMean", canonicalUnit: .millimeterOfMercury, aggregationStyle: .discreteArithmetic)
    /// `HKQuantityTypeIdentifierHeartRate`; count/min; LOINC 8867-4, MDC 149546.
    public static let heartRate = QuantityType(identifier: "heartRate", canonicalUnit: .countPerMinute, aggregationStyle: .discreteArithmetic)

    public var description: String { identifier }
}
