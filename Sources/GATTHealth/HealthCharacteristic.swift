/// The GATT characteristics cuffd decodes, by their 16-bit assigned numbers.
///
/// Numbers and names: Bluetooth SIG Assigned Numbers (the `org.bluetooth.characteristic.*` GATT XML,
/// archived in oesmith/gatt-xml, and the GSS YAML for the BPS 1.1 additions 0x2B34–0x2B36);
/// docs/reference/GATT-HEALTH.md §2.
public enum HealthCharacteristic: UInt16, CaseIterable, Hashable, Sendable {
    case dateTime = 0x2A08
    case batteryLevel = 0x2A19
    case systemID = 0x2A23
    case modelNumberString = 0x2A24
    case serialNumberString = 0x2A25
    case firmwareRevisionString = 0x2A26
    case hardwareRevisionString = 0x2A27
    case softwareRevisionString = 0x2A28
    case manufacturerNameString = 0x2A29
    case currentTime = 0x2A2B
    case bloodPressureMeasurement = 0x2A35
    case intermediateCuffPressure = 0x2A36
    case heartRateMeasurement = 0x2A37
    case bodySensorLocation = 0x2A38
    case heartRateControlPoint = 0x2A39
    case bloodPressureFeature = 0x2A49
    case pnpID = 0x2A50
    case recordAccessControlPoint = 0x2A52
    case enhancedBloodPressureMeasurement = 0x2B34
    case enhancedIntermediateCuffPressure = 0x2B35
    case bloodPressureRecord = 0x2B36

    /// The SIG's name, in words ("Blood Pressure Measurement").
    public var name: String {
        switch self {
        case .dateTime: "Date Time"
        case .batteryLevel: "Battery Level"
        case .systemID: "System ID"
        case .modelNumberString: "Model Number String"
        case .serialNumberString: "Serial Number String"
        case .firmwareRevisionString: "Firmware Revision String"
        case .hardwareRevisionString: "Hardware Revision String"
        case .softwareRevisionString: "Software Revision String"
        case .manufacturerNameString: "Manufacturer Name String"
        case .currentTime: "Current Time"
        case .bloodPressureMeasurement: "Blood Pressure Measurement"
        case .intermediateCuffPressure: "Intermediate Cuff Pressure"
        case .heartRateMeasurement: "Heart Rate Measurement"
        case .bodySensorLocation: "Body Sensor Location"
        case .heartRateControlPoint: "Heart Rate Control Point"
        case .bloodPressureFeature: "Blood Pressure Feature"
        case .pnpID: "PnP ID"
        case .recordAccessControlPoint: "Record Access Control Point"
        case .enhancedBloodPressureMeasurement: "Enhanced Blood Pressure Measurement"
        case .enhancedIntermediateCuffPressure: "Enhanced Intermediate Cuff Pressure"
        case .bloodPressureRecord: "Blood Pressure Record"
        }
    }

    /// The name in lower-case words joined by hyphens, as command lines take it
    /// (`blood-pressure-measurement`).
    public var commandLineName: String {
        String(name.lowercased().map { $0 == " " ? "-" : $0 })
    }

    /// The service that holds this characteristic (docs/reference/GATT-HEALTH.md §2); nil for Date Time 0x2A08, a
    /// field type that standard services embed rather than expose.
    public var service: HealthService? {
        switch self {
        case .dateTime: nil
        case .batteryLevel: .batteryService
        case .systemID, .modelNumberString, .serialNumberString, .firmwareRevisionString, .hardwareRevisionString,
            .softwareRevisionString, .manufacturerNameString, .pnpID:
            .deviceInformation
        case .currentTime: .currentTime
        case .bloodPressureMeasurement, .intermediateCuffPressure, .bloodPressureFeature, .recordAccessControlPoint,
            .enhancedBloodPressureMeasurement, .enhancedIntermediateCuffPressure, .bloodPressureRecord:
            .bloodPressure
        case .heartRateMeasurement, .bodySensorLocation, .heartRateControlPoint: .heartRate
        }
    }

    /// The 16-bit number as four upper-case hex digits (`2A35`).
    public var shortUUID: String { Hex.digits(rawValue) }

    /// The full 128-bit UUID on the Bluetooth Base UUID, lower case, as BlueZ's `UUID` property spells it.
    public var uuid: String { BluetoothUUID.expand(rawValue) }

    /// Finds a characteristic from a 16-bit UUID (`2A35`, `0x2a35`), a 128-bit UUID on the Bluetooth Base
    /// UUID, or its command-line name (`blood-pressure-measurement`). Case does not matter.
    public init?(identifier: String) {
        if let number = BluetoothUUID.shortNumber(identifier), let known = HealthCharacteristic(rawValue: number) {
            self = known
            return
        }
        let wanted = identifier.lowercased()
        guard let named = HealthCharacteristic.allCases.first(where: { $0.commandLineName == wanted }) else { return nil }
        self = named
    }
}

/// The services cuffd looks for, by their 16-bit assigned numbers (docs/reference/GATT-HEALTH.md §2).
public enum HealthService: UInt16, CaseIterable, Hashable, Sendable {
    case currentTime = 0x1805
    case deviceInformation = 0x180A
    case heartRate = 0x180D
    case batteryService = 0x180F
    case bloodPressure = 0x1810

    /// The full 128-bit UUID, lower case, as BlueZ's `UUID` property spells it.
    public var uuid: String { BluetoothUUID.expand(rawValue) }
}
