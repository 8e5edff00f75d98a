import DBus

/// One mirror of bluetoothd's object tree: every object's interfaces and properties, as
/// `GetManagedObjects` reported them and `InterfacesAdded`, `InterfacesRemoved` and
/// `PropertiesChanged` changed them since, applied in the order they arrived (docs/reference/BLUEZ-DBUS.md §1:
/// "answer every later question from it"). Questions are asked by address and UUID; object paths
/// are only how the answers are found.
struct ObjectMirror {
    private(set) var objects: [DBusObjectPath: [String: DBusProperties]] = [:]

    /// Replaces everything with a `GetManagedObjects` answer.
    mutating func reset(_ managed: [DBusObjectPath: [String: DBusProperties]]) {
        objects = managed
    }

    mutating func removeAll() {
        objects = [:]
    }

    /// `InterfacesAdded`: an interface already there is replaced with the new properties.
    mutating func add(_ interfaces: [String: DBusProperties], at path: DBusObjectPath) {
        objects[path, default: [:]].merge(interfaces) { _, new in new }
    }

    /// `InterfacesRemoved`.
    mutating func remove(_ interfaces: [String], at path: DBusObjectPath) {
        guard var existing = objects[path] else { return }
        for name in interfaces { existing[name] = nil }
        objects[path] = existing.isEmpty ? nil : existing
    }

    /// `PropertiesChanged`; returns false when the object or interface is not known (BlueZ exports
    /// objects before it changes them, so that is a signal from before our snapshot).
    @discardableResult
    mutating func change(_ changed: DBusProperties, invalidated: [String], interface: String, at path: DBusObjectPath) -> Bool {
        guard objects[path]?[interface] != nil else { return false }
        objects[path]![interface]!.merge(changed) { _, new in new }
        for name in invalidated { objects[path]![interface]![name] = nil }
        return true
    }

    func properties(_ interface: String, at path: DBusObjectPath) -> DBusProperties? {
        objects[path]?[interface]
    }

    // MARK: - Typed questions

    var adapters: [Adapter] {
        objects.compactMap { path, interfaces in interfaces[BluezName.adapter].flatMap { Adapter(path: path, $0) } }
            .sorted { $0.path < $1.path }
    }

    func adapter(at path: DBusObjectPath) -> Adapter? {
        properties(BluezName.adapter, at: path).flatMap { Adapter(path: path, $0) }
    }

    func adapter(_ address: BluetoothAddress) -> Adapter? {
        adapters.first { $0.address == address }
    }

    func device(at path: DBusObjectPath) -> Device? {
        guard let properties = properties(BluezName.device, at: path),
              let adapterPath = try? properties.property("Adapter", as: DBusObjectPath.self),
              let adapter = adapter(at: adapterPath)
        else { return nil }
        return Device(path: path, properties, adapter: adapter.address)
    }

    var devices: [Device] {
        objects.keys.sorted().compactMap { device(at: $0) }
    }

    func device(_ id: DeviceID) -> Device? {
        devices.first { $0.id == id }
    }

    /// The characteristic at `path` with the device and service it belongs to.
    func characteristic(at path: DBusObjectPath) -> GattCharacteristic? {
        guard let properties = properties(BluezName.gattCharacteristic, at: path),
              let uuid = try? properties.property("UUID", as: String.self),
              let servicePath = try? properties.property("Service", as: DBusObjectPath.self),
              let service = self.properties(BluezName.gattService, at: servicePath),
              let serviceUUID = try? service.property("UUID", as: String.self),
              let devicePath = try? service.property("Device", as: DBusObjectPath.self),
              let device = device(at: devicePath)
        else { return nil }
        return GattCharacteristic(
            path: path, device: device.id, uuid: uuid.lowercased(), serviceUUID: serviceUUID.lowercased(),
            flags: Set(((try? properties.property("Flags", as: [String].self)) ?? nil) ?? []),
            notifying: ((try? properties.property("Notifying", as: Bool.self)) ?? nil) ?? false)
    }

    /// Every characteristic exported beneath a device.
    func characteristics(of device: DeviceID) -> [GattCharacteristic] {
        guard let devicePath = self.device(device)?.path else { return [] }
        return objects.keys.filter { $0 != devicePath && $0.isDescendant(of: devicePath) }.sorted()
            .compactMap { characteristic(at: $0) }
    }

    /// Every descriptor exported beneath a device's characteristics, in path order.
    func descriptors(of device: DeviceID) -> [GattDescriptor] {
        guard let devicePath = self.device(device)?.path else { return [] }
        return objects.keys.filter { $0.isDescendant(of: devicePath) }.sorted().compactMap { path in
            guard let properties = properties(BluezName.gattDescriptor, at: path),
                  let uuid = try? properties.property("UUID", as: String.self),
                  let characteristic = try? properties.property("Characteristic", as: DBusObjectPath.self)
            else { return nil }
            let flags = Set(((try? properties.property("Flags", as: [String].self)) ?? nil) ?? [])
            return GattDescriptor(path: path, device: device, uuid: uuid, characteristic: characteristic, flags: flags)
        }
    }

    /// The characteristic `uuid` of a device; when a device has it in several services, the first.
    func characteristic(_ uuid: String, of device: DeviceID) -> GattCharacteristic? {
        characteristics(of: device).first { $0.uuid == uuid.lowercased() }
    }
}
