import FoundationEssentials
import GATTHealth

/// What one 0x2A35 value means for the person on the cuff.
public enum MeasurementInterpretation: Hashable, Sendable {
    /// A reading to store.
    case reading(Reading)
    /// The cuff reports a measurement that failed (systolic or diastolic is NaN or another special
    /// value, as after "Err" on its display — vectors BPM-R2/R3): an event, never a sample.
    case failed(FailedMeasurement)

    /// Interprets a decoded Blood Pressure Measurement from `device`.
    public init(
        _ measurement: BloodPressureMeasurement, payload: [UInt8], device: DeviceIdentity, users: UserDirectory,
        receivedAt: Date, clockOffset: Duration? = nil, sequenceNumber: UInt16? = nil
    ) {
        let deviceTime = measurement.timeStamp.flatMap { $0.isKnown ? $0 : nil }
        guard !measurement.isFailedMeasurement else {
            self = .failed(FailedMeasurement(
                device: device, userID: measurement.userID, deviceTime: deviceTime, status: measurement.status,
                receivedAt: receivedAt, payload: payload))
            return
        }
        self = .reading(Reading(
            device: device, userID: measurement.userID, person: users.person(for: measurement.userID, on: device),
            unit: measurement.unit, systolic: measurement.systolic, diastolic: measurement.diastolic,
            meanArterialPressure: Self.usable(measurement.meanArterialPressure),
            pulseRate: measurement.pulseRate.flatMap(Self.usable), status: measurement.status, deviceTime: deviceTime,
            receivedAt: receivedAt, clockOffset: clockOffset, sequenceNumber: sequenceNumber, payload: payload))
    }

    /// A value worth storing: finite and not 0 (a MAP of 0x0000 means "not measured" on Beurer cuffs and
    /// others, GATT-HEALTH.md §4, "MAP may be 0x0000 or NaN on real cuffs: treat it as optional").
    private static func usable(_ value: MedFloat16) -> MedFloat16? {
        value.isFinite && value.mantissa != 0 ? value : nil
    }
}

/// A measurement the cuff reported as failed.
public struct FailedMeasurement: Hashable, Sendable {
    public var device: DeviceIdentity
    public var userID: UInt8?
    public var deviceTime: DateTime?
    /// The status word, which often does not say why (BPM-R3 has 0x0000 although the cuff was too loose).
    public var status: BloodPressureMeasurementStatus?
    public var receivedAt: Date
    public var payload: [UInt8]
}
