import HealthStore

/// The types a grant or a statistic names (docs/dbus-api.md, `Grant`, `Statistics`): each quantity type by its
/// identifier, and `bloodPressure` for the correlation's members and the pulse stored with them.
public enum TypeGroups {
    public static let byName: [String: [QuantityType]] = [
        "bloodPressure": [.bloodPressureSystolic, .bloodPressureDiastolic, .bloodPressureMean, .heartRate],
        QuantityType.bloodPressureSystolic.identifier: [.bloodPressureSystolic],
        QuantityType.bloodPressureDiastolic.identifier: [.bloodPressureDiastolic],
        QuantityType.bloodPressureMean.identifier: [.bloodPressureMean],
        QuantityType.heartRate.identifier: [.heartRate],
    ]

    /// Every name, sorted, for messages.
    public static let names = byName.keys.sorted().joined(separator: ", ")
}
