/// A decoded value of any characteristic cuffd knows, for callers that choose the decoder at run time
/// (the daemon, by the characteristic's UUID; `cuffctl decode`, by its argument).
public enum DecodedCharacteristic: Hashable, Sendable {
    case bloodPressureMeasurement(BloodPressureMeasurement)
    case intermediateCuffPressure(IntermediateCuffPressure)
    case bloodPressureFeature(BloodPressureFeature)
    case enhancedBloodPressureMeasurement(EnhancedBloodPressureMeasurement)
    case enhancedIntermediateCuffPressure(EnhancedIntermediateCuffPressure)
    case bloodPressureRecordSegment(BloodPressureRecordSegment)
    case recordAccessControlPoint(RecordAccessControlPoint)
    case heartRateMeasurement(HeartRateMeasurement)
    case bodySensorLocation(BodySensorLocation)
    case heartRateControlPoint(HeartRateControlPoint)
    case dateTime(DateTime)
    case currentTime(CurrentTime)
    case deviceInformationString(HealthCharacteristic, DeviceInformationString)
    case systemID(SystemID)
    case pnpID(PnPID)
    case batteryLevel(BatteryLevel)

    /// Decodes `bytes` as a value of `characteristic`. The quirk applies to 0x2A35 and 0x2A36 only.
    public static func decode(
        _ characteristic: HealthCharacteristic, _ bytes: UnsafeRawBufferPointer, quirk: BloodPressureQuirk? = nil
    ) throws(GATTDecodingError) -> DecodedCharacteristic {
        switch characteristic {
        case .bloodPressureMeasurement: .bloodPressureMeasurement(try .init(decoding: bytes, quirk: quirk))
        case .intermediateCuffPressure: .intermediateCuffPressure(try .init(decoding: bytes, quirk: quirk))
        case .bloodPressureFeature: .bloodPressureFeature(try .init(decoding: bytes))
        case .enhancedBloodPressureMeasurement: .enhancedBloodPressureMeasurement(try .init(decoding: bytes))
        case .enhancedIntermediateCuffPressure: .enhancedIntermediateCuffPressure(try .init(decoding: bytes))
        case .bloodPressureRecord: .bloodPressureRecordSegment(try .init(decoding: bytes))
        case .recordAccessControlPoint: .recordAccessControlPoint(try .init(decoding: bytes))
        case .heartRateMeasurement: .heartRateMeasurement(try .init(decoding: bytes))
        case .bodySensorLocation: .bodySensorLocation(try .init(decoding: bytes))
        case .heartRateControlPoint: .heartRateControlPoint(try .init(decoding: bytes))
        case .dateTime: .dateTime(try .init(decoding: bytes))
        case .currentTime: .currentTime(try .init(decoding: bytes))
        case .manufacturerNameString, .modelNumberString, .serialNumberString, .hardwareRevisionString,
            .firmwareRevisionString, .softwareRevisionString:
            .deviceInformationString(characteristic, DeviceInformationString(decoding: bytes))
        case .systemID: .systemID(try .init(decoding: bytes))
        case .pnpID: .pnpID(try .init(decoding: bytes))
        case .batteryLevel: .batteryLevel(try .init(decoding: bytes))
        }
    }

    /// Decodes bytes from any collection (contiguous ones are not copied).
    public static func decode(
        _ characteristic: HealthCharacteristic, _ bytes: some Collection<UInt8>, quirk: BloodPressureQuirk? = nil
    ) throws(GATTDecodingError) -> DecodedCharacteristic {
        try withContiguousBytes(bytes) { buffer throws(GATTDecodingError) in
            try decode(characteristic, buffer, quirk: quirk)
        }
    }
}
