import DBus
import GATTHealth

/// One characteristic of an emulated cuff, as GattCharacteristic1 exports it.
struct EmulatedCharacteristic: Sendable {
    let characteristic: HealthCharacteristic
    let path: DBusObjectPath
    let servicePath: DBusObjectPath
    /// `Flags` (`doc/gatt-api.txt`): `read`, `write`, `notify`, `indicate`.
    let flags: [String]
    /// The value a read returns before anything changed it.
    let initialValue: [UInt8]
    /// The Client Characteristic Configuration descriptor 0x2902 bluetoothd exports beneath
    /// characteristics that notify or indicate.
    let configurationDescriptorPath: DBusObjectPath?

    var canNotify: Bool { flags.contains("notify") || flags.contains("indicate") }
    var isReadable: Bool { flags.contains("read") }
    var isWritable: Bool { flags.contains("write") }
}

/// One primary service of an emulated cuff.
struct EmulatedService: Sendable {
    let service: HealthService
    let path: DBusObjectPath
    let characteristics: [EmulatedCharacteristic]
}

/// The GATT database of a cuff: the services of its scenario, with object paths numbered by ATT
/// handle the way bluetoothd names them (`serviceNNNN/charNNNN/descNNNN`, four lower-case hex
/// digits; BLUEZ-DBUS.md §1). bluetoothd hides GAP 0x1800 and GATT 0x1801, so neither appears.
struct GattLayout: Sendable {
    let services: [EmulatedService]

    init(spec: CuffSpec, devicePath: DBusObjectPath, now: DateTime) {
        var handle: UInt16 = 0x000A
        var services: [EmulatedService] = []
        for service in spec.services.sorted(by: { $0.rawValue < $1.rawValue }) {
            let servicePath = try! devicePath.appending(Self.element("service", handle))
            handle += 1
            var characteristics: [EmulatedCharacteristic] = []
            for (characteristic, flags, value) in Self.characteristics(of: service, spec: spec, now: now) {
                // A declaration handle, a value handle, and a CCCD handle when it notifies.
                let path = try! servicePath.appending(Self.element("char", handle))
                let notifies = flags.contains("notify") || flags.contains("indicate")
                let descriptor = notifies ? try! path.appending(Self.element("desc", handle + 2)) : nil
                characteristics.append(EmulatedCharacteristic(
                    characteristic: characteristic, path: path, servicePath: servicePath, flags: flags,
                    initialValue: value, configurationDescriptorPath: descriptor))
                handle += notifies ? 3 : 2
            }
            services.append(EmulatedService(service: service, path: servicePath, characteristics: characteristics))
            handle += 1
        }
        self.services = services
    }

    var characteristics: [EmulatedCharacteristic] { services.flatMap(\.characteristics) }

    func characteristic(_ characteristic: HealthCharacteristic) -> EmulatedCharacteristic? {
        characteristics.first { $0.characteristic == characteristic }
    }

    func characteristic(at path: DBusObjectPath) -> EmulatedCharacteristic? {
        characteristics.first { $0.path == path || $0.configurationDescriptorPath == path }
    }

    static func element(_ prefix: String, _ handle: UInt16) -> String {
        let digits = String(handle, radix: 16)
        return prefix + String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// The characteristics each service carries (GATT-HEALTH.md §2), their properties, and
    /// their first values.
    private static func characteristics(
        of service: HealthService, spec: CuffSpec, now: DateTime
    ) -> [(HealthCharacteristic, [String], [UInt8])] {
        switch service {
        case .bloodPressure:
            [(.bloodPressureMeasurement, ["indicate"], []),
             (.intermediateCuffPressure, ["notify"], []),
             (.bloodPressureFeature, ["read"], spec.feature.bytes)]
        case .heartRate:
            [(.heartRateMeasurement, ["notify"], []),
             (.bodySensorLocation, ["read"], [BodySensorLocation.wrist.rawValue]),
             (.heartRateControlPoint, ["write"], [])]
        case .deviceInformation:
            [(.manufacturerNameString, spec.deviceInformation?.manufacturer),
             (.modelNumberString, spec.deviceInformation?.model),
             (.serialNumberString, spec.deviceInformation?.serial),
             (.firmwareRevisionString, spec.deviceInformation?.firmware)]
                .compactMap { characteristic, text in text.map { (characteristic, ["read"], Array($0.utf8)) } }
        case .currentTime:
            [(.currentTime, ["read", "write", "notify"], CurrentTime(dateTime: now, adjustReason: []).encoded())]
        case .batteryService:
            [(.batteryLevel, ["read", "notify"], [100])]
        }
    }
}
