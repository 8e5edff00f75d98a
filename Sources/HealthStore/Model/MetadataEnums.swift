/// Body position during a blood-pressure measurement (Health Connect `BloodPressureRecord.kt`).
public enum BodyPosition: Int64, Sendable, Hashable {
    /// Health Connect `BODY_POSITION_*` values 0–4.
    case unknown = 0, standingUp = 1, sittingDown = 2, lyingDown = 3, reclining = 4
}

/// Where the cuff was worn (Health Connect `BloodPressureRecord.kt`).
public enum MeasurementLocation: Int64, Sendable, Hashable {
    /// Health Connect `MEASUREMENT_LOCATION_*` values 0–4.
    case unknown = 0, leftWrist = 1, rightWrist = 2, leftUpperArm = 3, rightUpperArm = 4
}
