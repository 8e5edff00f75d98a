/// One fuzzed decoder and the invariants it must keep on every input.
enum FuzzTarget: String, CaseIterable {
    case bloodPressureMeasurement = "2A35"
    case beurerBloodPressureMeasurement = "2A35-beurer"
    case plausibleReading = "2A35-gateway"
    case intermediateCuffPressure = "2A36"
    case bloodPressureFeature = "2A49"
    case enhancedBloodPressureMeasurement = "2B34"
    case enhancedIntermediateCuffPressure = "2B35"
    case bloodPressureRecord = "2B36"
    case recordAccessControlPoint = "2A52"
    case heartRateMeasurement = "2A37"
    case bodySensorLocation = "2A38"
    case heartRateControlPoint = "2A39"
    case dateTime = "2A08"
    case currentTime = "2A2B"
    case systemID = "2A23"
    case pnpID = "2A50"
    case batteryLevel = "2A19"
    case deviceInformationString = "2A29"
    case medicalFloats = "SFLOAT-FLOAT"

    func check(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .bloodPressureMeasurement: checkBloodPressureFrame(bytes, as: BloodPressureMeasurement.self, quirk: nil)
        case .beurerBloodPressureMeasurement: checkBloodPressureFrame(bytes, as: BloodPressureMeasurement.self, quirk: .beurerByteSwapped)
        case .plausibleReading: checkPlausibleReading(bytes)
        case .intermediateCuffPressure: checkBloodPressureFrame(bytes, as: IntermediateCuffPressure.self, quirk: nil)
        case .bloodPressureFeature: checkFixedLength(bytes, as: BloodPressureFeature.self, length: 2)
        case .enhancedBloodPressureMeasurement: checkEnhanced(bytes, as: EnhancedBloodPressureMeasurement.self, pressures: 3)
        case .enhancedIntermediateCuffPressure: checkEnhanced(bytes, as: EnhancedIntermediateCuffPressure.self, pressures: 1)
        case .bloodPressureRecord: checkRecordSegments(bytes)
        case .recordAccessControlPoint: checkRecordAccessControlPoint(bytes)
        case .heartRateMeasurement: checkHeartRateMeasurement(bytes)
        case .bodySensorLocation: checkFixedLength(bytes, as: BodySensorLocation.self, length: 1)
        case .heartRateControlPoint: checkFixedLength(bytes, as: HeartRateControlPoint.self, length: 1)
        case .dateTime: checkDateTime(bytes)
        case .currentTime: checkFixedLength(bytes, as: CurrentTime.self, length: 10)
        case .systemID: checkFixedLength(bytes, as: SystemID.self, length: 8)
        case .pnpID: checkFixedLength(bytes, as: PnPID.self, length: 7)
        case .batteryLevel: checkFixedLength(bytes, as: BatteryLevel.self, length: 1)
        case .deviceInformationString: checkDeviceInformationString(bytes)
        case .medicalFloats: checkMedicalFloats(bytes)
        }
    }
}
