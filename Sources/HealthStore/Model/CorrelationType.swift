/// A kind of correlation, as HealthKit's `HKCorrelationType` (docs/reference/HEALTH-STORE.md §1–2).
public struct CorrelationType: Sendable, Hashable, CustomStringConvertible {
    /// Stable identifier, stored in the database.
    public let identifier: String
    /// Member types that must appear exactly once.
    public let requiredMembers: [QuantityType]
    /// Member types that may appear at most once.
    public let optionalMembers: [QuantityType]

    /// A correlation type.
    public init(identifier: String, requiredMembers: [QuantityType], optionalMembers: [QuantityType]) {
        self.identifier = identifier
        self.requiredMembers = requiredMembers
        self.optionalMembers = optionalMembers
    }

    /// `HKCorrelationTypeIdentifierBloodPressure`: "Blood pressure correlations always include two
    /// quantity samples, representing the systolic and diastolic values" (HealthKit: `HKCorrelation`);
    /// cuffd accepts the mean as an optional member (docs/reference/HEALTH-STORE.md §1). LOINC 85354-9, MDC 150020.
    public static let bloodPressure = CorrelationType(
        identifier: "bloodPressure",
        requiredMembers: [.bloodPressureSystolic, .bloodPressureDiastolic],
        optionalMembers: [.bloodPressureMean]
    )

    /// All member types, required first.
    public var memberTypes: [QuantityType] { requiredMembers + optionalMembers }

    public var description: String { identifier }
}
