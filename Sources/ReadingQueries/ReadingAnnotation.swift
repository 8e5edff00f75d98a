import HealthStore

/// The words for where and how a reading was taken, as `cuffctl add` and `annotate` take them and every output shows
/// them, beside the store's codes (Health Connect `BloodPressureRecord.kt`, docs/reference/HEALTH-STORE.md §2): one
/// table each, both ways.
public enum ReadingAnnotation {
    /// The arm a cuff was on, by name: a person says `left` or `right` (an upper-arm cuff); a wrist is shown as such.
    public static let arms: [(name: String, location: MeasurementLocation)] = [
        ("left", .leftUpperArm), ("right", .rightUpperArm), ("left wrist", .leftWrist), ("right wrist", .rightWrist),
    ]
    /// The body's position, by name.
    public static let positions: [(name: String, position: BodyPosition)] = [
        ("sitting", .sittingDown), ("standing", .standingUp), ("lying", .lyingDown), ("reclining", .reclining),
    ]
    /// The arms a person may name.
    public static let armChoices = ["left", "right"]
    /// The positions a person may name.
    public static let positionChoices = ["sitting", "standing", "lying"]

    public static func name(of location: MeasurementLocation) -> String? { arms.first { $0.location == location }?.name }
    public static func name(of position: BodyPosition) -> String? { positions.first { $0.position == position }?.name }
    public static func location(named name: String) -> MeasurementLocation? {
        armChoices.contains(name) ? arms.first { $0.name == name }?.location : nil
    }
    public static func position(named name: String) -> BodyPosition? {
        positionChoices.contains(name) ? positions.first { $0.name == name }?.position : nil
    }
}
