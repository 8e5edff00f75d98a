/// Exported objects: methods, properties, ObjectManager.
extension DBusConnection {
    /// Exports interfaces at `path` (adding to those already there). Under an ObjectManager the
    /// manager announces them with `InterfacesAdded`.
    public func export(_ interfaces: [DBusInterface], at path: DBusObjectPath) async {
        await export([(path, interfaces)])
    }

    /// Exports each object's interfaces at once: no call is answered between two of them, so `GetManagedObjects`
    /// shows all or none, as bluetoothd's objects of one GATT database (docs/reference/BLUEZ-DBUS.md §6).
    public func export(_ objects: [(path: DBusObjectPath, interfaces: [DBusInterface])]) async {
        await onQueue {
            for (path, interfaces) in objects {
                self.objects.add(interfaces, at: path)
                if let manager = self.objects.manager(above: path) {
                    let added = interfaces.map { DBusDictionaryEntry(.string($0.name), .dictionary(key: .string, value: .variant, $0.readableProperties)) }
                    try? self.emitSignal(manager, StandardInterface.objectManager, "InterfacesAdded", [
                        .objectPath(path), .dictionary(key: .string, value: .dictionary(key: .string, value: .variant), added),
                    ])
                }
            }
        }
    }

    /// Withdraws the named interfaces at `path` (all when nil), announced with `InterfacesRemoved`.
    public func unexport(_ path: DBusObjectPath, interfaces names: [String]? = nil) async {
        await onQueue {
            let removed = self.objects.remove(names, at: path)
            if !removed.isEmpty, let manager = self.objects.manager(above: path) {
                try? self.emitSignal(manager, StandardInterface.objectManager, "InterfacesRemoved", [
                    .objectPath(path), .array(.string, removed.map { .string($0) }),
                ])
            }
        }
    }

    /// Withdraws `path` and every object beneath it, each announced with `InterfacesRemoved`.
    public func unexportTree(_ path: DBusObjectPath) async {
        let paths = await onQueue { self.objects.objects(beneath: path).map(\.0).reversed() + [path] }
        for child in paths { await unexport(child) }
    }

    /// Puts an `org.freedesktop.DBus.ObjectManager` at `path`.
    public func addObjectManager(at path: DBusObjectPath) async {
        await onQueue { self.objects.addManager(at: path) }
    }

    /// Changes properties of an exported interface and emits one `PropertiesChanged` with all
    /// of them, even when a value is unchanged (BlueZ does this for `Value`, docs/reference/BLUEZ-DBUS.md §7).
    public func setProperties(_ changes: [String: DBusValue], interface: String, at path: DBusObjectPath) async throws(DBusError) {
        let unknown = await onQueue { () -> String? in
            for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
                guard self.objects.setValue(value, property: name, interface: interface, at: path) else { return name }
            }
            return nil
        }
        if let unknown { throw DBusError(.unknownProperty, "no property \(unknown) on \(interface) at \(path)") }
        try emitPropertiesChanged(changes, interface: interface, at: path)
    }

    func emitPropertiesChanged(_ changes: [String: DBusValue], interface: String, at path: DBusObjectPath) throws(DBusError) {
        let entries = changes.sorted { $0.key < $1.key }.map { DBusDictionaryEntry(.string($0.key), .variant($0.value)) }
        try emitSignal(path, StandardInterface.properties, "PropertiesChanged", [
            .string(interface), .dictionary(key: .string, value: .variant, entries), .array(.string, []),
        ])
    }

    /// The current value of an exported property.
    public func propertyValue(_ name: String, interface: String, at path: DBusObjectPath) async -> DBusValue? {
        await onQueue { self.objects.interface(interface, at: path)?.properties.first { $0.name == name }?.value }
    }

    // MARK: - Dispatch, on the queue

    /// Answers a method call addressed to an exported object; false when nothing is exported
    /// there (libdbus then answers `UnknownObject`/`UnknownMethod`).
    func dispatchMethodCall(_ message: DBusMessage) -> Bool {
        guard let path = message.path, let member = message.member, objects.hasNode(path) else { return false }
        let interfaces = objects.interfaces(at: path) ?? []
        switch message.interface {
        case StandardInterface.introspectable?:
            reply(to: message, member == "Introspect"
                ? .success([.string(Introspection.xml(path: path, interfaces: interfaces, children: objects.childNames(of: path), isManager: objects.managers.contains(path)))])
                : .failure(unknownMethod(message)))
        case StandardInterface.properties?:
            answerProperties(message, member: member, path: path)
        case StandardInterface.objectManager? where objects.managers.contains(path):
            reply(to: message, member == "GetManagedObjects" ? .success([managedObjects(beneath: path)]) : .failure(unknownMethod(message)))
        case StandardInterface.peer?:
            return false  // libdbus answers Ping and GetMachineId itself
        case let name:
            let candidates = interfaces.filter { name == nil || $0.name == name }
            guard let method = candidates.lazy.flatMap(\.methods).first(where: { $0.name == member }) else {
                reply(to: message, .failure(name.map { n in interfaces.contains { $0.name == n } } == false
                    ? DBusError(.unknownInterface, "no interface \(name!) at \(path)") : unknownMethod(message)))
                return true
            }
            let expected = method.inputs.map(\.type.signature).joined()
            guard message.signature == expected else {
                reply(to: message, .failure(DBusError(.invalidArgs, "\(member) takes (\(expected)), got (\(message.signature))")))
                return true
            }
            let call = DBusMethodCall(message: message, connection: self)
            Task(executorPreference: methodCallExecutor) {
                let result: Result<[DBusValue], DBusError>
                do {
                    result = .success(try await method.handler(call))
                } catch {
                    result = .failure(Self.dbusError(from: error))
                }
                self.reply(to: message, result)
            }
        }
        return true
    }

    static func dbusError(from error: any Error) -> DBusError {
        (error as? DBusErrorConvertible)?.dbusError ?? DBusError(.failed, String(describing: error))
    }

    private func unknownMethod(_ message: DBusMessage) -> DBusError {
        DBusError(.unknownMethod, "no method \(message.member ?? "") (\(message.signature)) on \(message.interface ?? "any interface") at \(message.path?.text ?? "")")
    }

    /// Any thread: the reply is marshalled on the calling one (a handler's task), so that a large reply does not hold
    /// up the connection's queue, which only sends it.
    func reply(to message: DBusMessage, _ result: Result<[DBusValue], DBusError>) {
        guard !message.noReplyExpected else { return }
        let reply = switch result {
        case .success(let values): message.methodReturn(values)
        case .failure(let error): message.errorReply(error)
        }
        do {
            try send(reply)
        } catch {
            try? send(message.errorReply(DBusError(.failed, "cannot marshal the reply: \(error)")))
        }
    }

    private func managedObjects(beneath path: DBusObjectPath) -> DBusValue {
        let interfacesType = DBusType.dictionary(key: .string, value: .dictionary(key: .string, value: .variant))
        let entries = objects.objects(beneath: path).map { objectPath, interfaces in
            DBusDictionaryEntry(.objectPath(objectPath), .dictionary(key: .string, value: .dictionary(key: .string, value: .variant),
                interfaces.map { DBusDictionaryEntry(.string($0.name), .dictionary(key: .string, value: .variant, $0.readableProperties)) }))
        }
        return .dictionary(key: .objectPath, value: interfacesType, entries)
    }

    /// `org.freedesktop.DBus.Properties`: Get, GetAll, Set.
    private func answerProperties(_ message: DBusMessage, member: String, path: DBusObjectPath) {
        let interfaceName = try? message.argument(0, as: String.self)
        guard let interfaceName else {
            return reply(to: message, .failure(DBusError(.invalidArgs, "\(member) needs an interface name")))
        }
        guard let interface = objects.interface(interfaceName, at: path) else {
            return reply(to: message, .failure(DBusError(.unknownInterface, "no interface \(interfaceName) at \(path)")))
        }
        if member == "GetAll", message.signature == "s" {
            return reply(to: message, .success([.dictionary(key: .string, value: .variant, interface.readableProperties)]))
        }
        guard let name = try? message.argument(1, as: String.self) else {
            return reply(to: message, .failure(member == "Get" || member == "Set"
                ? DBusError(.invalidArgs, "\(member) takes (ss\(member == "Set" ? "v" : "")), got (\(message.signature))")
                : unknownMethod(message)))
        }
        guard let property = interface.properties.first(where: { $0.name == name }) else {
            return reply(to: message, .failure(DBusError(.unknownProperty, "no property \(name) on \(interfaceName)")))
        }
        switch member {
        case "Get" where message.signature == "ss":
            reply(to: message, property.access == .write
                ? .failure(DBusError(.accessDenied, "property \(name) is write-only")) : .success([.variant(property.value)]))
        case "Set" where message.signature == "ssv":
            guard property.access != .read, let setter = property.setter else {
                return reply(to: message, .failure(DBusError(.propertyReadOnly, "property \(name) of \(interfaceName) is read-only")))
            }
            guard case .variant(let value) = message.arguments[2], value.type == property.type else {
                return reply(to: message, .failure(DBusError(.invalidArgs, "property \(name) is \(property.type.signature), got \(message.arguments[2])")))
            }
            let call = DBusMethodCall(message: message, connection: self)
            Task(executorPreference: methodCallExecutor) {
                do {
                    let stored = try await setter(value, call)
                    try await self.setProperties([name: stored], interface: interfaceName, at: path)
                    self.reply(to: message, .success([]))
                } catch {
                    let failure = Self.dbusError(from: error)
                    self.reply(to: message, .failure(failure))
                }
            }
        default:
            reply(to: message, .failure(unknownMethod(message)))
        }
    }
}
