import DBus
import GATTHealth

/// The interfaces the emulator exports, built from the current state. Method handlers only
/// forward to the actor; the behaviour lives in the other `BluezEmulator+` files.
extension BluezEmulator {
    static let options = DBusInterface.Argument("options", .dictionary(key: .string, value: .variant))

    func adapterInterface() -> DBusInterface {
        let adapter = scenario.adapter
        return DBusInterface(Bluez.adapter, methods: [
            .init("StartDiscovery") { [self] call in try await startDiscovery(client: call.sender); return [] },
            .init("StopDiscovery") { [self] call in try await stopDiscovery(client: call.sender); return [] },
            .init("SetDiscoveryFilter", inputs: [.init("filter", .dictionary(key: .string, value: .variant))]) { [self] call in
                try await setDiscoveryFilter(try call.argument(0), client: call.sender)
                return []
            },
            .init("GetDiscoveryFilters", outputs: [.init("filters", .array(.string))]) { _ in
                [["UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern"].dbusValue]
            },
            .init("RemoveDevice", inputs: [.init("device", .objectPath)]) { [self] call in
                try await removeDevice(try call.argument(0))
                return []
            },
        ], properties: [
            .init("Address", adapter.address.description),
            .init("AddressType", "public"),
            .init("Name", adapter.name),
            .init("Alias", adapter.name, access: .readwrite) { value, _ in value },
            .init("Class", UInt32(0)),
            .init("Powered", true, access: .readwrite) { [self] value, _ in
                await setPowered(try value.decode(Bool.self))
                return value
            },
            .init("Discoverable", false, access: .readwrite) { value, _ in value },
            .init("DiscoverableTimeout", UInt32(180), access: .readwrite) { value, _ in value },
            .init("Pairable", true, access: .readwrite) { value, _ in value },
            .init("PairableTimeout", UInt32(0), access: .readwrite) { value, _ in value },
            .init("Discovering", !discoverySessions.isEmpty),
            .init("UUIDs", [String]()),
            .init("Modalias", "usb:v1D6Bp0246d0542"),
            .init("Roles", ["central", "peripheral"]),
        ])
    }

    func gattManagerInterface() -> DBusInterface {
        DBusInterface(Bluez.gattManager, methods: [
            .init("RegisterApplication", inputs: [.init("application", .objectPath), Self.options]) { [self] call in
                try await registerApplication(at: try call.argument(0), client: call.sender)
                return []
            },
            .init("UnregisterApplication", inputs: [.init("application", .objectPath)]) { [self] call in
                try await unregisterApplication(at: try call.argument(0), client: call.sender)
                return []
            },
        ])
    }

    func agentManagerInterface() -> DBusInterface {
        DBusInterface(Bluez.agentManager, methods: [
            .init("RegisterAgent", inputs: [.init("agent", .objectPath), .init("capability", .string)]) { [self] call in
                try await registerAgent(at: try call.argument(0), capability: try call.argument(1), client: call.sender)
                return []
            },
            .init("UnregisterAgent", inputs: [.init("agent", .objectPath)]) { [self] call in
                try await unregisterAgent(at: try call.argument(0), client: call.sender)
                return []
            },
            .init("RequestDefaultAgent", inputs: [.init("agent", .objectPath)]) { [self] call in
                try await requestDefaultAgent(at: try call.argument(0), client: call.sender)
                return []
            },
        ])
    }

    /// Device1 (`doc/device-api.txt`); `RSSI` only for a device seen advertising.
    func deviceInterface(_ index: Int, discovered: Bool) -> DBusInterface {
        let cuff = cuffs[index]
        let name = cuff.spec.name
        var properties: [DBusInterface.Property] = [
            .init("Address", cuff.spec.address.description),
            .init("AddressType", "public"),
            .init("Name", name),
            .init("Alias", name, access: .readwrite) { value, _ in
                // An empty alias restores the remote name (`doc/device-api.txt`).
                value == .string("") ? .string(name) : value
            },
            .init("Paired", cuff.paired),
            .init("Bonded", cuff.paired),
            .init("Trusted", cuff.trusted, access: .readwrite) { [self] value, call in
                try await setTrusted(try value.decode(Bool.self), device: call.path)
                return value
            },
            .init("Blocked", false, access: .readwrite) { value, _ in value },
            .init("LegacyPairing", false),
            .init("Connected", cuff.connected),
            .init("UUIDs", cuff.spec.advertisedUUIDs),
            .init("Adapter", Bluez.adapterPath),
            .init("ServicesResolved", false),
        ]
        if discovered { properties.append(.init("RSSI", Int16(-58))) }
        if let company = cuff.spec.manufacturerID {
            let data = DBusDictionaryEntry(.uint16(company), .variant(.bytes([])))
            properties.append(.init("ManufacturerData", .dictionary(key: .uint16, value: .variant, [data])))
        }
        return DBusInterface(Bluez.device, methods: [
            .init("Connect") { [self] call in try await connect(device: call.path); return [] },
            .init("Disconnect") { [self] call in try await disconnect(device: call.path); return [] },
            .init("Pair") { [self] call in try await pair(device: call.path, client: call.sender); return [] },
            .init("CancelPairing") { [self] call in try await cancelPairing(device: call.path); return [] },
        ], properties: properties)
    }

    func serviceInterface(_ service: EmulatedService, device: DBusObjectPath) -> DBusInterface {
        DBusInterface(Bluez.gattService, properties: [
            .init("UUID", service.uuid),
            .init("Device", device),
            .init("Primary", true),
            .init("Includes", [DBusObjectPath]()),
        ])
    }

    /// GattCharacteristic1 (`doc/gatt-api.txt`); `Notifying` only where notify or indicate is set.
    func characteristicInterface(_ index: Int, _ characteristic: EmulatedCharacteristic) -> DBusInterface {
        var properties: [DBusInterface.Property] = [
            .init("UUID", characteristic.id.uuid),
            .init("Service", characteristic.servicePath),
            .init("Value", cuffs[index].values[characteristic.id] ?? []),
            .init("Flags", characteristic.flags),
            .init("MTU", GattLayout.mtu),
        ]
        if characteristic.canNotify {
            properties.append(.init("Notifying", cuffs[index].isNotifying(characteristic.id)))
        }
        return DBusInterface(Bluez.gattCharacteristic, methods: [
            .init("ReadValue", inputs: [Self.options], outputs: [.init("value", .array(.byte))]) { [self] call in
                [.bytes(try await readValue(at: call.path, options: try call.argument(0)))]
            },
            .init("WriteValue", inputs: [.init("value", .array(.byte)), Self.options]) { [self] call in
                try await writeValue(try call.argument(0), options: try call.argument(1), at: call.path)
                return []
            },
            .init("StartNotify") { [self] call in try await startNotify(at: call.path, client: call.sender); return [] },
            .init("StopNotify") { [self] call in try await stopNotify(at: call.path, client: call.sender); return [] },
        ], properties: properties)
    }

    /// The Client Characteristic Configuration descriptor 0x2902: readable; bluetoothd writes it
    /// itself for StartNotify and refuses writes from clients.
    func configurationDescriptorInterface(_ characteristic: EmulatedCharacteristic) -> DBusInterface {
        DBusInterface(Bluez.gattDescriptor, methods: [
            .init("ReadValue", inputs: [Self.options], outputs: [.init("value", .array(.byte))]) { [self] call in
                [.bytes(try await readConfiguration(at: call.path))]
            },
            .init("WriteValue", inputs: [.init("value", .array(.byte)), Self.options]) { _ in
                throw BluezError.notPermitted("Write not permitted")
            },
        ], properties: [
            .init("UUID", "00002902-0000-1000-8000-00805f9b34fb"),
            .init("Characteristic", characteristic.path),
            .init("Value", [UInt8]()),
            .init("Flags", ["read"]),
        ])
    }

    /// A recorded cuff's other descriptors: reads answer what the capture read (or its refusal); writes are refused.
    func recordedDescriptorInterface(_ descriptor: EmulatedDescriptor, of characteristic: EmulatedCharacteristic) -> DBusInterface {
        let recorded = descriptor.descriptor
        return DBusInterface(Bluez.gattDescriptor, methods: [
            .init("ReadValue", inputs: [Self.options], outputs: [.init("value", .array(.byte))]) { _ in
                if let value = recorded.value { return [.bytes(value)] }
                guard let error = recorded.readError else { return [.bytes([])] }
                let refusal = RecordedConversation.Refusal(error)
                throw DBusError(DBusError.Name(rawValue: refusal.name), refusal.message)
            },
            .init("WriteValue", inputs: [.init("value", .array(.byte)), Self.options]) { _ in
                throw BluezError.notPermitted("Write not permitted")
            },
        ], properties: [
            .init("UUID", recorded.uuid),
            .init("Characteristic", characteristic.path),
            .init("Value", recorded.value ?? []),
            .init("Flags", recorded.flags),
        ])
    }

    // MARK: - Exporting

    func exportDevice(_ index: Int, discovered: Bool) async {
        cuffs[index].exported = true
        await connection?.export([deviceInterface(index, discovered: discovered)], at: cuffs[index].devicePath)
    }

    func unexportDevice(_ index: Int) async {
        cuffs[index].exported = false
        cuffs[index].servicesExported = false
        await connection?.unexportTree(cuffs[index].devicePath)
    }

    /// Exports the GATT database of a connected cuff in one go, as bluetoothd does (docs/reference/BLUEZ-DBUS.md §6):
    /// a `GetManagedObjects` answered meanwhile holds all of it or none.
    func exportServices(_ index: Int) async {
        cuffs[index].servicesExported = true
        var objects: [(path: DBusObjectPath, interfaces: [DBusInterface])] = []
        for service in cuffs[index].layout.services {
            objects.append((service.path, [serviceInterface(service, device: cuffs[index].devicePath)]))
            for characteristic in service.characteristics {
                objects.append((characteristic.path, [characteristicInterface(index, characteristic)]))
                if let descriptor = characteristic.configurationDescriptorPath {
                    objects.append((descriptor, [configurationDescriptorInterface(characteristic)]))
                }
                for descriptor in characteristic.descriptors {
                    objects.append((descriptor.path, [recordedDescriptorInterface(descriptor, of: characteristic)]))
                }
            }
        }
        await connection?.export(objects)
    }

    func unexportServices(_ index: Int) async {
        cuffs[index].servicesExported = false
        for service in cuffs[index].layout.services {
            await connection?.unexportTree(service.path)
        }
    }
}
