import CuffRecording
import DBus
import GATTHealth

/// One characteristic of an emulated cuff, as GattCharacteristic1 exports it.
struct EmulatedCharacteristic: Sendable {
    let id: CharacteristicID
    let path: DBusObjectPath
    let servicePath: DBusObjectPath
    /// `Flags` (`doc/gatt-api.txt`): `read`, `write`, `notify`, `indicate`.
    let flags: [String]
    /// The value a read returns before anything changed it.
    let initialValue: [UInt8]
    /// Whether the cuff answers "Insufficient Authentication" until the link is paired.
    let requiresEncryption: Bool
    /// The Client Characteristic Configuration descriptor 0x2902 bluetoothd exports beneath
    /// characteristics that notify or indicate.
    let configurationDescriptorPath: DBusObjectPath?
    /// Its other descriptors: a recorded cuff's, as the capture found them.
    var descriptors: [EmulatedDescriptor] = []

    var canNotify: Bool { flags.contains("notify") || flags.contains("indicate") }
    var isReadable: Bool { flags.contains("read") }
    var isWritable: Bool { flags.contains("write") }
    var indicates: Bool { flags.contains("indicate") }
}

/// A descriptor of a recorded cuff other than the Client Characteristic Configuration, as GattDescriptor1 exports it,
/// with what a read returns.
struct EmulatedDescriptor: Sendable {
    let descriptor: RecordedDescriptor
    let path: DBusObjectPath
}

/// One primary service of an emulated cuff.
struct EmulatedService: Sendable {
    /// The `UUID` property.
    let uuid: String
    let path: DBusObjectPath
    let characteristics: [EmulatedCharacteristic]
}

/// The GATT database of a cuff: the services of its scenario, with object paths numbered by ATT
/// handle the way bluetoothd names them (`serviceNNNN/charNNNN/descNNNN`, four lower-case hex
/// digits; docs/reference/BLUEZ-DBUS.md §1). bluetoothd hides GAP 0x1800 and GATT 0x1801, so neither appears.
struct GattLayout: Sendable {
    /// The ATT MTU the emulated link negotiated (`GattCharacteristic1.MTU`; bluetoothd asks for 517).
    static let mtu: UInt16 = 247
    /// The most a notification or indication carries: MTU − 3.
    static let attPayload = Int(mtu) - 3

    let services: [EmulatedService]

    /// A characteristic a cuff's scenario gives it: which, its properties, its first value, and the handle
    /// its declaration must have where clients rely on one (Omron's receive channels).
    struct Declaration {
        let id: CharacteristicID
        let flags: [String]
        let value: [UInt8]
        var handle: UInt16? = nil
    }

    init(spec: CuffSpec, devicePath: DBusObjectPath) {
        services = spec.recorded.map { Self.recordedServices($0, devicePath: devicePath) } ?? Self.declaredServices(spec, devicePath: devicePath)
    }

    /// The services a scenario's fields declare, numbered from handle 0x000A on.
    private static func declaredServices(_ spec: CuffSpec, devicePath: DBusObjectPath) -> [EmulatedService] {
        var handle: UInt16 = 0x000A
        var services: [EmulatedService] = []
        var declared = spec.services.sorted(by: { $0.rawValue < $1.rawValue }).map { service in
            (uuid: service.uuid, declarations: Self.declarations(of: service, spec: spec), protected: Self.protectedServices.contains(service))
        }
        if let omron = spec.omron { declared.append((omron.model.stack.serviceUUID, Self.omronDeclarations(omron.model.stack), true)) }
        if spec.vendor == .aAndD { declared.append((AAndDService.uuid, Self.aAndDDeclarations, true)) }
        if spec.microlife != nil { declared.append((MicrolifeService.uuid, Self.microlifeDeclarations, true)) }
        for (uuid, declarations, protected) in declared {
            if uuid == OmronService.uuid { handle = max(handle, Self.omronServiceHandle) }
            let servicePath = try! devicePath.appending(Self.element("service", handle))
            handle += 1
            var characteristics: [EmulatedCharacteristic] = []
            for declaration in declarations {
                handle = max(handle, declaration.handle ?? 0)
                // A declaration handle, a value handle, and a CCCD handle when it notifies.
                let path = try! servicePath.appending(Self.element("char", handle))
                let notifies = declaration.flags.contains("notify") || declaration.flags.contains("indicate")
                let descriptor = notifies ? try! path.appending(Self.element("desc", handle + 2)) : nil
                characteristics.append(EmulatedCharacteristic(
                    id: declaration.id, path: path, servicePath: servicePath, flags: declaration.flags,
                    initialValue: declaration.value,
                    requiresEncryption: spec.pairing != .none && protected,
                    configurationDescriptorPath: descriptor))
                handle += notifies ? 3 : 2
            }
            services.append(EmulatedService(uuid: uuid, path: servicePath, characteristics: characteristics))
            handle += 1
        }
        return services
    }

    /// A recorded cuff's services as the capture found them, at the handles it recorded; an attribute recorded
    /// without one takes the next handle no other uses. Nothing is protected: a recording does not tell what needed a
    /// paired link (docs/cuff-sim.md, "Recorded cuffs").
    private static func recordedServices(_ recorded: RecordedCuff, devicePath: DBusObjectPath) -> [EmulatedService] {
        let taken = Set(recorded.services.flatMap { service in
            [service.handle] + service.characteristics.flatMap { [$0.handle] + $0.descriptors.map(\.handle) }
        }.compactMap { $0 })
        var next: UInt16 = 0x0009
        func handle(_ recorded: UInt16?) -> UInt16 {
            if let recorded {
                next = max(next, recorded)
                return recorded
            }
            repeat { next &+= 1 } while taken.contains(next)
            return next
        }
        var index = 0
        return recorded.services.map { service in
            let servicePath = try! devicePath.appending(element("service", handle(service.handle)))
            let characteristics = service.characteristics.map { characteristic in
                let path = try! servicePath.appending(element("char", handle(characteristic.handle)))
                _ = handle(nil)
                var configuration: DBusObjectPath?
                var descriptors: [EmulatedDescriptor] = []
                for descriptor in characteristic.descriptors {
                    let descriptorPath = try! path.appending(element("desc", handle(descriptor.handle)))
                    if descriptor.uuid == BluetoothUUID.expand(0x2902) {
                        configuration = descriptorPath
                    } else {
                        descriptors.append(EmulatedDescriptor(descriptor: descriptor, path: descriptorPath))
                    }
                }
                defer { index += 1 }
                var emulated = EmulatedCharacteristic(
                    id: .recorded(index, uuid: characteristic.uuid), path: path, servicePath: servicePath, flags: characteristic.flags,
                    initialValue: characteristic.value ?? [], requiresEncryption: false, configurationDescriptorPath: configuration)
                emulated.descriptors = descriptors
                return emulated
            }
            return EmulatedService(uuid: service.uuid, path: servicePath, characteristics: characteristics)
        }
    }

    var characteristics: [EmulatedCharacteristic] { services.flatMap(\.characteristics) }

    func characteristic(_ id: CharacteristicID) -> EmulatedCharacteristic? {
        characteristics.first { $0.id == id }
    }

    func characteristic(at path: DBusObjectPath) -> EmulatedCharacteristic? {
        characteristics.first { $0.path == path || $0.configurationDescriptorPath == path || $0.descriptors.contains { $0.path == path } }
    }

    static func element(_ prefix: String, _ handle: UInt16) -> String {
        prefix + Hex.digits(handle).lowercased()
    }

    /// The services whose characteristics a cuff that pairs protects: measurements, records, control
    /// points and its clock. Device Information and Battery stay readable on an unencrypted link, as on
    /// the cuffs of docs/reference/GATT-HEALTH.md §13.1, which ask for security when indications are enabled.
    static let protectedServices: Set<HealthService> = [.bloodPressure, .heartRate, .currentTime]

    /// Every characteristic of the cuff, service by service.
    static func declarations(of spec: CuffSpec) -> [Declaration] {
        spec.services.flatMap { declarations(of: $0, spec: spec) } + (spec.omron.map { omronDeclarations($0.model.stack) } ?? [])
            + (spec.vendor == .aAndD ? aAndDDeclarations : []) + (spec.microlife == nil ? [] : microlifeDeclarations)
    }

    /// Microlife's service 0xFFF0 (docs/reference/GATT-HEALTH.md §13.12): 0xFFF1 notifies the answers, 0xFFF2 takes the
    /// commands. Protected like the health services when the cuff pairs (the source reads it only from a paired cuff).
    static let microlifeDeclarations = [
        Declaration(id: .microlifeNotify, flags: ["notify"], value: []), Declaration(id: .microlifeCommand, flags: ["write"], value: []),
    ]

    /// A&D's service (docs/reference/GATT-HEALTH.md §13.8): its command characteristic, written to. Protected like the
    /// health services when the cuff pairs (obniz writes it after pairing).
    static let aAndDDeclarations = [Declaration(id: .aAndDCommand, flags: ["write"], value: [])]

    /// Omron's service (docs/omron.md §1). Classic: four write channels, the unlock characteristic (write,
    /// notify), four notify channels whose declarations sit at handles 0x360, 0x370, 0x380 and 0x390 as on real
    /// cuffs (omblepy tells the channels apart by these handles). 0xFE4A: one transmit channel taking Write
    /// Commands, the unlock characteristic taking both kinds of write (hass-omron `_token_unlock` tries a command,
    /// then a request), one notify channel. Protected like the health services when the cuff pairs.
    static func omronDeclarations(_ stack: OmronStack) -> [Declaration] {
        guard stack == .classic else {
            return [Declaration(id: .omronTransmit(0), flags: ["write-without-response"], value: []),
                    Declaration(id: .omronUnlock, flags: ["write", "write-without-response", "notify"], value: []),
                    Declaration(id: .omronReceive(0), flags: ["notify"], value: [])]
        }
        return (0 ..< 4).map { Declaration(id: .omronTransmit($0), flags: ["write"], value: []) }
            + [Declaration(id: .omronUnlock, flags: ["write", "notify"], value: [])]
            + (0 ..< 4).map { Declaration(id: .omronReceive($0), flags: ["notify"], value: [], handle: 0x0360 + 0x10 * UInt16($0)) }
    }

    /// Where the Omron service starts: below its receive channels' fixed handles.
    static let omronServiceHandle: UInt16 = 0x0300

    /// The characteristics each service carries (docs/reference/GATT-HEALTH.md §2, §7, §12), their properties, and
    /// their first values. A cuff with `records` is BPS 1.1: Enhanced BPM, Blood Pressure Record and RACP.
    private static func declarations(of service: HealthService, spec: CuffSpec) -> [Declaration] {
        func assigned(_ characteristic: HealthCharacteristic, _ flags: [String], _ value: [UInt8] = []) -> Declaration {
            Declaration(id: .assigned(characteristic), flags: flags, value: value)
        }
        switch service {
        case .bloodPressure:
            var declarations = [
                assigned(.bloodPressureMeasurement, ["indicate"]),
                assigned(.intermediateCuffPressure, ["notify"]),
                assigned(.bloodPressureFeature, ["read"], spec.feature.bytes),
            ]
            if spec.records != nil {
                declarations += [
                    assigned(.enhancedBloodPressureMeasurement, ["indicate"]),
                    assigned(.bloodPressureRecord, ["indicate"]),
                    assigned(.recordAccessControlPoint, ["write", "indicate"]),
                ]
            }
            if spec.vendor == .qardioArm {
                declarations.append(Declaration(id: .qardioArmControl, flags: ["write", "notify"], value: []))
            }
            if spec.clock?.characteristic == .dateTime {
                // Written, never read: neither A&D's sample nor obniz reads it (docs/reference/GATT-HEALTH.md §13.8).
                declarations.append(assigned(.dateTime, ["write"]))
            }
            return declarations
        case .heartRate:
            return [
                assigned(.heartRateMeasurement, ["notify"]),
                assigned(.bodySensorLocation, ["read"], [BodySensorLocation.wrist.rawValue]),
                assigned(.heartRateControlPoint, ["write"]),
            ]
        case .deviceInformation:
            return [(HealthCharacteristic.manufacturerNameString, spec.deviceInformation?.manufacturer),
                    (.modelNumberString, spec.deviceInformation?.model),
                    (.serialNumberString, spec.deviceInformation?.serial),
                    (.firmwareRevisionString, spec.deviceInformation?.firmware)]
                .compactMap { characteristic, text in text.map { assigned(characteristic, ["read"], Array($0.utf8)) } }
        case .currentTime:
            // Reads come from the cuff's running clock (CuffClock), not from a stored value.
            return [assigned(.currentTime, (spec.clock?.writable ?? true) ? ["read", "write", "notify"] : ["read", "notify"])]
        case .batteryService:
            return [assigned(.batteryLevel, ["read", "notify"], [100])]
        }
    }
}
