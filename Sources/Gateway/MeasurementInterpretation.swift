import FoundationEssentials
import GATTHealth

/// What one 0x2A35 value means for the person on the cuff.
public enum MeasurementInterpretation: Hashable, Sendable {
    /// A reading to store.
    case reading(Reading)
    /// The cuff reports a measurement that failed (systolic or diastolic is NaN or another special
    /// value, as after "Err" on its display — vectors BPM-R2/R3), or sends values no cuff can have measured
    /// (``PlausibleRange``): an event, never a sample.
    case failed(FailedMeasurement)

    /// Interprets a decoded Blood Pressure Measurement from `device`: a reading when its values are plausible
    /// (``PlausibleValues``), else a failure.
    public init(
        _ measurement: BloodPressureMeasurement, payload: [UInt8], device: DeviceIdentity, users: UserDirectory,
        receivedAt: Date, clockOffset: Duration? = nil, sequenceNumber: UInt16? = nil
    ) {
        self.init(
            Fields(unit: measurement.unit, systolic: measurement.systolic, diastolic: measurement.diastolic,
                   meanArterialPressure: measurement.meanArterialPressure, pulseRate: measurement.pulseRate,
                   userID: measurement.userID, status: measurement.status,
                   deviceTime: measurement.timeStamp.flatMap { $0.isKnown ? $0 : nil }),
            payload: payload, device: device, users: users, receivedAt: receivedAt, clockOffset: clockOffset, sequenceNumber: sequenceNumber)
    }

    /// Interprets a BPS 1.1 Enhanced Blood Pressure Measurement (0x2B34, docs/reference/GATT-HEALTH.md §7), typically a
    /// stored record. Its time stamp counts UTC seconds from the epoch its flag names, so it needs no clock
    /// offset; it is kept as a UTC calendar time.
    public init(
        _ measurement: EnhancedBloodPressureMeasurement, payload: [UInt8], device: DeviceIdentity, users: UserDirectory,
        receivedAt: Date, sequenceNumber: UInt16? = nil
    ) {
        self.init(
            Fields(unit: measurement.unit, systolic: measurement.systolic, diastolic: measurement.diastolic,
                   meanArterialPressure: measurement.meanArterialPressure, pulseRate: measurement.pulseRate,
                   userID: measurement.userID, status: measurement.status,
                   deviceTime: measurement.timeStamp.map { measurement.epochStart.dateTime(secondsSinceEpoch: $0) }),
            payload: payload, device: device, users: users, receivedAt: receivedAt, clockOffset: nil, sequenceNumber: sequenceNumber)
    }

    /// Interprets a record from an Omron cuff's memory (docs/omron.md §6): whole mmHg and beats per minute, no
    /// mean arterial pressure, the Omron user number as User ID, irregular heartbeat, body movement, cuff fit
    /// and a wrist cuff's position as the status bits of 0x2A35, and the cuff's wall-clock time unless the clock had restarted at 2000.
    public init(
        _ record: OmronRecord, user: UInt8, slot: [UInt8], device: DeviceIdentity, users: UserDirectory, receivedAt: Date,
        clockOffset: Duration?
    ) {
        self.init(
            Fields(unit: .millimetresOfMercury, systolic: Self.whole(record.systolic), diastolic: Self.whole(record.diastolic), meanArterialPressure: MedFloat16(.nan),
                   pulseRate: Self.whole(record.pulse), userID: user,
                   status: BloodPressureMeasurementStatus(
                       bodyMovement: record.bodyMovement, cuffTooLoose: record.cuffTooLoose, irregularPulse: record.irregularHeartbeat,
                       improperPosition: record.improperPosition),
                   deviceTime: record.isTimeKnown ? record.time : nil),
            payload: slot, device: device, users: users, receivedAt: receivedAt, clockOffset: clockOffset, sequenceNumber: nil)
    }

    /// Interprets a record from a Microlife cuff's memory (docs/reference/GATT-HEALTH.md §13.12): whole mmHg and beats
    /// per minute, no mean arterial pressure or status, the selected user (1 or 2) as User ID, the cuff's wall-clock
    /// time to the minute; the record's bytes are the payload that, with the time, recognise it when the cuff sends its
    /// memory again.
    public init(
        _ record: MicrolifeReading, user: UInt8, device: DeviceIdentity, users: UserDirectory, receivedAt: Date, clockOffset: Duration?
    ) {
        self.init(
            Fields(unit: .millimetresOfMercury, systolic: Self.whole(record.systolic), diastolic: Self.whole(record.diastolic),
                   meanArterialPressure: MedFloat16(.nan), pulseRate: Self.whole(record.pulse), userID: user, status: nil,
                   deviceTime: record.time),
            payload: record.bytes, device: device, users: users, receivedAt: receivedAt, clockOffset: clockOffset, sequenceNumber: nil)
    }

    /// A whole number of mmHg or beats per minute, as vendor records carry them.
    private static func whole(_ value: some BinaryInteger) -> MedFloat16 { MedFloat16(mantissa: Int32(value), exponent: 0) ?? MedFloat16(.nan) }

    /// What both measurement characteristics carry.
    private struct Fields {
        var unit: PressureUnit
        var systolic, diastolic, meanArterialPressure: MedFloat16
        var pulseRate: MedFloat16?
        var userID: UInt8?
        var status: BloodPressureMeasurementStatus?
        var deviceTime: DateTime?
    }

    private init(
        _ fields: Fields, payload: [UInt8], device: DeviceIdentity, users: UserDirectory, receivedAt: Date, clockOffset: Duration?,
        sequenceNumber: UInt16?
    ) {
        let values: PlausibleValues
        do {
            values = try PlausibleValues(
                unit: fields.unit, systolic: fields.systolic, diastolic: fields.diastolic,
                meanArterialPressure: fields.meanArterialPressure, pulseRate: fields.pulseRate)
        } catch {
            self = .failed(FailedMeasurement(
                device: device, userID: fields.userID, deviceTime: fields.deviceTime, status: fields.status,
                receivedAt: receivedAt, payload: payload, reason: error))
            return
        }
        self = .reading(Reading(
            device: device, userID: fields.userID, person: users.person(for: fields.userID, on: device),
            unit: fields.unit, systolic: values.systolic, diastolic: values.diastolic,
            meanArterialPressure: values.meanArterialPressure, pulseRate: values.pulseRate,
            status: fields.status, deviceTime: fields.deviceTime, receivedAt: receivedAt, clockOffset: clockOffset,
            sequenceNumber: sequenceNumber, payload: payload, dropped: values.dropped))
    }
}

/// A measurement the cuff reported as failed, or whose values were implausible.
public struct FailedMeasurement: Hashable, Sendable {
    public var device: DeviceIdentity
    public var userID: UInt8?
    public var deviceTime: DateTime?
    /// The status word, which often does not say why (BPM-R3 has 0x0000 although the cuff was too loose).
    public var status: BloodPressureMeasurementStatus?
    public var receivedAt: Date
    public var payload: [UInt8]
    /// Why no reading came of it.
    public var reason: FailureReason
}
