import GATTHealth

extension DecodedCharacteristic {
    /// The report fields of each characteristic. Blood pressure and heart rate values share one shape
    /// (every key present, null when absent) so that scripts can read any of them the same way.
    var reportFields: [(String, JSONValue)] {
        switch self {
        case let .bloodPressureMeasurement(value):
            pressureFields(
                unit: value.unit, pressures: (value.systolic, value.diastolic, value.meanArterialPressure, nil),
                time: TimeFields(value.timeStamp), pulseRate: value.pulseRate, userID: value.userID,
                status: value.status, trailingBytes: value.trailingByteCount)
        case let .intermediateCuffPressure(value):
            pressureFields(
                unit: value.unit, pressures: (nil, nil, nil, value.cuffPressure), time: TimeFields(value.timeStamp),
                pulseRate: value.pulseRate, userID: value.userID, status: value.status,
                trailingBytes: value.trailingByteCount)
        case let .enhancedBloodPressureMeasurement(value):
            pressureFields(
                unit: value.unit, pressures: (value.systolic, value.diastolic, value.meanArterialPressure, nil),
                time: TimeFields(value.timeStamp, value.userFacingTime, value.epochStart), pulseRate: value.pulseRate,
                userID: value.userID, status: value.status, trailingBytes: value.trailingByteCount)
        case let .enhancedIntermediateCuffPressure(value):
            pressureFields(
                unit: value.unit, pressures: (nil, nil, nil, value.cuffPressure),
                time: TimeFields(value.timeStamp, value.userFacingTime, value.epochStart), pulseRate: value.pulseRate,
                userID: value.userID, status: value.status, trailingBytes: value.trailingByteCount)
        case let .heartRateMeasurement(value):
            pressureFields(
                unit: nil, pressures: (nil, nil, nil, nil), time: TimeFields(nil), pulseRate: nil, userID: nil,
                status: nil, heartRate: value, trailingBytes: value.trailingByteCount)
        case let .bloodPressureRecordSegment(segment):
            [
                ("firstSegment", .bool(segment.isFirst)), ("lastSegment", .bool(segment.isLast)),
                ("segmentCounter", .integer(segment.counter)), ("sequenceNumber", JSONValue(segment.sequenceNumber)),
                ("recordedCharacteristic", segment.recordedCharacteristicUUID.map { .string(Hex.digits($0)) } ?? .null),
                ("recordedBytes", .integer(segment.payloadRange.count)),
            ]
        case let .recordAccessControlPoint(value):
            recordAccessFields(value)
        case let .bloodPressureFeature(feature):
            [("featureRaw", .integer(feature.rawValue))] + Self.featureNames.map { name, option in
                (name, .bool(feature.contains(option)))
            }
        case let .bodySensorLocation(location):
            [("locationRaw", .integer(location.rawValue)), ("location", location.name.map { .string($0) } ?? .null)]
        case let .heartRateControlPoint(point):
            [("valueRaw", .integer(point.rawValue)), ("supported", .bool(point.isSupported))]
        case let .dateTime(value):
            TimeFields(value).fields
        case let .currentTime(value):
            TimeFields(value.dateTime).fields + [
                ("dayOfWeek", .integer(value.dayOfWeek)), ("fractions256", .integer(value.fractions256)),
                ("adjustReasonRaw", .integer(value.adjustReason.rawValue)),
            ]
        case let .deviceInformationString(_, string):
            [("value", .string(string.value))]
        case let .systemID(id):
            [
                ("manufacturerIdentifier", .integer(id.manufacturerIdentifier)),
                ("organizationallyUniqueIdentifier", .integer(id.organizationallyUniqueIdentifier)),
                ("eui64", .string(id.eui64)),
            ]
        case let .pnpID(id):
            [
                ("vendorIDSource", .integer(id.vendorIDSource)), ("vendorID", .integer(id.vendorID)),
                ("productID", .integer(id.productID)), ("productVersion", .integer(id.productVersion)),
            ]
        case let .batteryLevel(level):
            [("batteryLevelRaw", .integer(level.rawValue)), ("batteryLevel", JSONValue(level.percent))]
        }
    }

    private static let featureNames: [(String, BloodPressureFeature)] = [
        ("bodyMovementDetection", .bodyMovementDetection), ("cuffFitDetection", .cuffFitDetection),
        ("irregularPulseDetection", .irregularPulseDetection), ("pulseRateRangeDetection", .pulseRateRangeDetection),
        ("measurementPositionDetection", .measurementPositionDetection), ("multipleBond", .multipleBond),
        ("e2eCRC", .e2eCRC), ("userDataService", .userDataService), ("userFacingTime", .userFacingTime),
    ]
}

/// The keys every blood pressure and heart rate report carries, null where the value has no such field.
private func pressureFields(
    unit: PressureUnit?, pressures: (MedFloat16?, MedFloat16?, MedFloat16?, MedFloat16?), time: TimeFields,
    pulseRate: MedFloat16?, userID: UInt8?, status: BloodPressureMeasurementStatus?,
    heartRate: HeartRateMeasurement? = nil, trailingBytes: Int
) -> [(String, JSONValue)] {
    [
        ("unit", unit.map { .string($0.rawValue) } ?? .null),
        ("systolic", JSONValue(pressures.0)), ("diastolic", JSONValue(pressures.1)),
        ("meanArterialPressure", JSONValue(pressures.2)), ("cuffPressure", JSONValue(pressures.3)),
        ("pulseRate", JSONValue(pulseRate)),
    ] + time.fields + [("userID", JSONValue(userID))] + statusFields(status) + [
        ("heartRate", JSONValue(heartRate?.heartRate)),
        ("sensorContact", heartRate.map { .string($0.sensorContact.rawValue) } ?? .null),
        ("energyExpended", JSONValue(heartRate?.energyExpended)),
        ("rrIntervals", heartRate?.rrIntervals.map { .array($0.map { .integer($0) }) } ?? .null),
        ("omittedRRIntervals", JSONValue(heartRate?.omittedRRIntervalCount)),
        ("trailingBytes", .integer(trailingBytes)),
    ]
}

private func statusFields(_ status: BloodPressureMeasurementStatus?) -> [(String, JSONValue)] {
    let range: JSONValue = status.map {
        switch $0.pulseRateRange {
        case .withinRange: .string("withinRange")
        case .exceedsUpperLimit: .string("exceedsUpperLimit")
        case .belowLowerLimit: .string("belowLowerLimit")
        case .reserved: .string("reserved")
        }
    } ?? .null
    return [
        ("statusRaw", JSONValue(status?.rawValue)),
        ("bodyMovement", status.map { .bool($0.bodyMovement) } ?? .null),
        ("cuffTooLoose", status.map { .bool($0.cuffTooLoose) } ?? .null),
        ("irregularPulse", status.map { .bool($0.irregularPulse) } ?? .null),
        ("pulseRateRange", range),
        ("improperPosition", status.map { .bool($0.improperPosition) } ?? .null),
    ]
}

private func recordAccessFields(_ value: RecordAccessControlPoint) -> [(String, JSONValue)] {
    var fields: [(String, JSONValue)] = [
        ("opCode", .integer(value.opCode.rawValue)), ("operator", .integer(value.operator.rawValue)),
    ]
    switch value.operand {
    case .none: break
    case let .filter(type, filterValue):
        fields += [("filterType", .integer(type.rawValue)), ("filterValue", .integer(filterValue))]
    case let .range(type, minimum, maximum):
        fields += [
            ("filterType", .integer(type.rawValue)), ("filterValue", .integer(minimum)),
            ("filterValueMaximum", .integer(maximum)),
        ]
    case let .numberOfRecords(count): fields.append(("numberOfRecords", .integer(count)))
    case let .response(request, code):
        fields += [("requestOpCode", .integer(request)), ("responseCode", .integer(code))]
    case let .sequenceNumber(number): fields.append(("sequenceNumber", .integer(number)))
    }
    return fields + [("trailingBytes", .integer(value.trailingByteCount))]
}

/// The time keys: the device's time stamp, whether it is a real calendar time, and for BPS 1.1 values
/// the User Facing Time and epoch.
private struct TimeFields {
    let fields: [(String, JSONValue)]

    /// A Date Time in the cuff's local wall clock: `YYYY-MM-DDTHH:MM:SS`, or null when unknown.
    init(_ timeStamp: DateTime?) {
        fields = [
            ("timestamp", timeStamp?.isoString.map { .string($0) } ?? .null),
            ("timestampKnown", timeStamp.map { .bool($0.isKnown) } ?? .null),
        ]
    }

    /// BPS 1.1 seconds since the epoch: the time stamp is UTC (suffix `Z`), the user-facing time local.
    init(_ timeStamp: UInt32?, _ userFacingTime: UInt32?, _ epoch: EpochStart) {
        let utc = timeStamp.flatMap { epoch.dateTime(secondsSinceEpoch: $0).isoString }
        let local = userFacingTime.flatMap { epoch.dateTime(secondsSinceEpoch: $0).isoString }
        fields = [
            ("timestamp", utc.map { .string($0 + "Z") } ?? .null),
            ("timestampKnown", timeStamp.map { _ in .bool(utc != nil) } ?? .null),
            ("userFacingTime", local.map { .string($0) } ?? .null),
            ("epochStart", .string(epoch == .year1900 ? "1900-01-01" : "2000-01-01")),
        ]
    }
}
