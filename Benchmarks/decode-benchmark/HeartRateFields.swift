import GATTHealth

/// Every field of a Heart Rate Measurement, read from the decoded value through its public properties: what
/// Benchmarks/c-reference's `hrm_value` holds after `hrm_decode`, so that `decode-benchmark --every-field` compares
/// like with like — the C decoder parses every field, where the Swift value only checks and keeps the frame and reads
/// a field when asked (Benchmarks/RESULTS.md, "A Heart Rate Measurement as a view of its frame").
struct HeartRateFields {
    var heartRate: UInt16
    var isSixteenBitValue: Bool
    var sensorContact: HeartRateMeasurement.SensorContact
    var reservedFlags: UInt8
    var energyExpended: UInt16?
    var rrIntervals: RRIntervals?
    var omittedRRIntervalCount: Int
    var trailingByteCount: Int

    @inline(__always)
    init(_ value: HeartRateMeasurement) {
        heartRate = value.heartRate
        isSixteenBitValue = value.isSixteenBitValue
        sensorContact = value.sensorContact
        reservedFlags = value.reservedFlags
        energyExpended = value.energyExpended
        rrIntervals = value.rrIntervals
        omittedRRIntervalCount = value.omittedRRIntervalCount
        trailingByteCount = value.trailingByteCount
    }
}
