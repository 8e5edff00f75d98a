import DBus

/// AgentManager1 and GattManager1 registrations (`src/agent.c`, `src/gatt-database.c`,
/// docs/reference/BLUEZ-DBUS.md §4–§5). Each is tied to the client's unique name and dropped when it leaves.
extension BluezEmulator {
    static let capabilities: Set<String> = ["DisplayOnly", "DisplayYesNo", "KeyboardOnly", "NoInputNoOutput", "KeyboardDisplay", ""]

    func registerAgent(at path: DBusObjectPath, capability: String, client: String) throws(DBusError) {
        guard Self.capabilities.contains(capability) else { throw BluezError.invalidArguments("unknown capability \(capability)") }
        guard agents[client] == nil else { throw BluezError.alreadyExists }
        // An empty capability means KeyboardDisplay (`doc/agent-api.txt`).
        agents[client] = AgentRegistration(path: path, capability: capability.isEmpty ? "KeyboardDisplay" : capability)
        log("agent \(path) registered by \(client) (\(capability))")
    }

    func unregisterAgent(at path: DBusObjectPath, client: String) throws(DBusError) {
        guard agents[client]?.path == path else { throw BluezError.doesNotExist("No such Agent") }
        agents[client] = nil
        if defaultAgentOwner == client { defaultAgentOwner = nil }
    }

    func requestDefaultAgent(at path: DBusObjectPath, client: String) throws(DBusError) {
        guard agents[client]?.path == path else { throw BluezError.doesNotExist("No such Agent") }
        defaultAgentOwner = client
        log("agent \(path) of \(client) is the default agent")
    }

    /// Reads the application's objects (`GetManagedObjects` on its path) before it replies, as
    /// bluetoothd does; the UUIDs of its GattProfile1 objects arm auto-connect.
    func registerApplication(at path: DBusObjectPath, client: String) async throws(DBusError) {
        let key = ApplicationKey(owner: client, path: path)
        guard applications[key] == nil else { throw BluezError.alreadyExists }
        guard let connection else { throw BluezError.notReady }
        let reply: [DBusValue]
        do {
            reply = try await connection.call(client, path, StandardInterface.objectManager, "GetManagedObjects")
        } catch {
            throw BluezError.failed("Failed to read the application's objects: \(error.message)")
        }
        guard let objects = try? reply.first?.decode([DBusObjectPath: [String: DBusProperties]].self) else {
            throw BluezError.invalidArguments("GetManagedObjects did not answer a{oa{sa{sv}}}")
        }
        var uuids: Set<String> = []
        for (objectPath, interfaces) in objects where objectPath == path || objectPath.isDescendant(of: path) {
            guard let profile = interfaces[Bluez.gattProfile] else { continue }
            let listed = (try? profile.property("UUIDs", as: [String].self)) ?? nil
            uuids.formUnion((listed ?? []).map { $0.lowercased() })
        }
        applications[key] = uuids
        log("application \(path) registered by \(client); profiles: \(uuids.sorted().joined(separator: ", "))")
        for index in cuffs.indices { autoConnectIfWanted(index) }
    }

    func unregisterApplication(at path: DBusObjectPath, client: String) throws(DBusError) {
        guard applications.removeValue(forKey: ApplicationKey(owner: client, path: path)) != nil else {
            throw BluezError.doesNotExist("Does Not Exist")
        }
    }
}
