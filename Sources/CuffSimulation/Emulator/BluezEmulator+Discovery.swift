import DBus

/// Adapter1 discovery, device appearance and the removal of temporary devices
/// (`src/adapter.c`, docs/reference/BLUEZ-DBUS.md §2).
extension BluezEmulator {
    func setDiscoveryFilter(_ filter: DBusProperties, client: String) throws(DBusError) {
        var uuids: Set<String> = []
        for (key, value) in filter {
            switch key {
            case "UUIDs":
                guard let list = try? value.decode([String].self) else { throw BluezError.invalidArguments("UUIDs must be as") }
                uuids = Set(list.map { $0.lowercased() })
            case "Transport":
                guard let transport = try? value.decode(String.self), ["auto", "le", "bredr"].contains(transport) else {
                    throw BluezError.invalidArguments("Transport must be auto, le or bredr")
                }
            case "RSSI", "Pathloss", "DuplicateData", "Discoverable", "Pattern":
                continue
            default:
                throw BluezError.invalidArguments("unknown filter key \(key)")
            }
        }
        // An empty dictionary clears the client's filter.
        discoveryFilters[client] = filter.isEmpty ? nil : uuids
    }

    func startDiscovery(client: String) async throws(DBusError) {
        guard powered else { throw BluezError.notReady }
        guard !discoverySessions.contains(client) else { throw BluezError.inProgress }
        discoverySessions.insert(client)
        log("discovery started by \(client)")
        if discoverySessions.count == 1 {
            await update(Bluez.adapterPath, Bluez.adapter, ["Discovering": .boolean(true)])
        }
        let generation = generation
        spawn {
            // Advertisements arrive a moment after the scan starts.
            try? await Task.sleep(for: .milliseconds(100))
            await self.reportAdvertisingCuffs(generation: generation)
        }
    }

    func stopDiscovery(client: String) async throws(DBusError) {
        guard discoverySessions.contains(client) else { throw BluezError.failed("No discovery started") }
        await endDiscoverySession(of: client)
    }

    func endDiscoverySession(of client: String) async {
        guard discoverySessions.remove(client) != nil else { return }
        log("discovery stopped by \(client)")
        guard discoverySessions.isEmpty else { return }
        await update(Bluez.adapterPath, Bluez.adapter, ["Discovering": .boolean(false)])
        // Temporary devices go after TemporaryTimeout; only non-connectable ones (never a cuff)
        // would go at once (`discovery_cleanup` in `src/adapter.c`).
        for index in cuffs.indices where cuffs[index].exported {
            scheduleRemoval(index)
        }
    }

    /// While discovery runs, an advertising cuff that passes some client's filter appears (or
    /// refreshes its RSSI); a cuff that may auto-connect is connected.
    func reportAdvertisingCuffs(generation: Int) async {
        guard generation == self.generation else { return }
        for index in cuffs.indices where cuffs[index].advertising {
            await cuffAdvertised(index)
        }
    }

    func cuffAdvertised(_ index: Int) async {
        if !discoverySessions.isEmpty, passesFilters(index) {
            cuffs[index].removalToken += 1
            if cuffs[index].exported {
                await update(cuffs[index].devicePath, Bluez.device, ["RSSI": .int16(-58)])
            } else {
                log("\(name(index)) discovered")
                await exportDevice(index, discovered: true)
            }
        }
        autoConnectIfWanted(index)
    }

    /// Filters of all clients are merged: a device shows if any session has no UUID filter or
    /// a filter naming one of its services.
    private func passesFilters(_ index: Int) -> Bool {
        let advertised = Set(cuffs[index].spec.advertisedUUIDs)
        return discoverySessions.contains { client in
            guard let uuids = discoveryFilters[client], !uuids.isEmpty else { return true }
            return !uuids.isDisjoint(with: advertised)
        }
    }

    /// A temporary device that is not connected goes after `temporaryTimeout` unless it is
    /// seen, connected, paired or trusted meanwhile.
    func scheduleRemoval(_ index: Int) {
        guard cuffs[index].isTemporary, discoverySessions.isEmpty else { return }
        cuffs[index].removalToken += 1
        let token = cuffs[index].removalToken
        let delay = scenario.adapter.temporaryTimeout
        spawn {
            try? await Task.sleep(for: .seconds(delay))
            await self.removeIfStillTemporary(index, token: token)
        }
    }

    private func removeIfStillTemporary(_ index: Int, token: Int) async {
        let cuff = cuffs[index]
        guard cuff.removalToken == token, cuff.exported, cuff.isTemporary, !cuff.connected, discoverySessions.isEmpty else { return }
        log("\(name(index)) removed: temporary device, TemporaryTimeout passed")
        await unexportDevice(index)
    }

    func removeDevice(_ path: DBusObjectPath) async throws(DBusError) {
        guard let index = cuffs.firstIndex(where: { $0.devicePath == path && $0.exported }) else {
            throw BluezError.doesNotExist("Device does not exist")
        }
        if cuffs[index].connected { await dropLink(index, byHost: true) }
        cuffs[index].paired = false
        cuffs[index].trusted = false
        cuffs[index].bondForgotten = false
        cuffs[index].databaseKnown = false
        cuffs[index].notifySessions = [:]
        cuffs[index].removalToken += 1
        log("\(name(index)) removed by RemoveDevice; bond forgotten")
        await unexportDevice(index)
    }

    func setPowered(_ on: Bool) async {
        powered = on
        guard !on else { return }
        for index in cuffs.indices where cuffs[index].connected { await dropLink(index, byHost: true) }
        for client in discoverySessions { await endDiscoverySession(of: client) }
    }
}
