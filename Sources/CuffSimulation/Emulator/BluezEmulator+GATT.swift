import DBus
import GATTHealth

/// GattCharacteristic1 reads, writes and notify sessions, and the values the cuff sends
/// (`src/gatt-client.c`, BLUEZ-DBUS.md §7–§8).
extension BluezEmulator {
    func readValue(at path: DBusObjectPath, options: DBusProperties) async throws(DBusError) -> [UInt8] {
        let (index, characteristic) = try cuffIndex(attribute: path)
        guard characteristic.isReadable else { throw BluezError.notPermitted("Read not permitted") }
        let value = cuffs[index].values[characteristic.characteristic] ?? []
        let offset = Int((try? options.property("offset", as: UInt16.self)) ?? 0) ?? 0
        guard offset <= value.count else { throw BluezError.make("InvalidOffset", "Invalid offset") }
        // A read updates the cached Value, which notifies like a notification does (§7).
        await update(path, Bluez.gattCharacteristic, ["Value": .bytes(value)])
        return Array(value[offset...])
    }

    func writeValue(_ value: [UInt8], at path: DBusObjectPath) async throws(DBusError) {
        let (index, characteristic) = try cuffIndex(attribute: path)
        guard characteristic.isWritable else { throw BluezError.notPermitted("Write not permitted") }
        cuffs[index].values[characteristic.characteristic] = value
        log("\(name(index)) 0x\(characteristic.characteristic.shortUUID) written: \(hex(value))")
    }

    func readConfiguration(at path: DBusObjectPath) throws(DBusError) -> [UInt8] {
        let (index, characteristic) = try cuffIndex(attribute: path)
        guard cuffs[index].isNotifying(characteristic.characteristic) else { return [0, 0] }
        return characteristic.flags.contains("indicate") ? [2, 0] : [1, 0]
    }

    /// One session per client; a second StartNotify from the same client succeeds (§7).
    func startNotify(at path: DBusObjectPath, client: String) async throws(DBusError) {
        let (index, characteristic) = try cuffIndex(attribute: path)
        guard characteristic.canNotify else { throw BluezError.notSupported("Operation is not supported") }
        let key = characteristic.characteristic
        guard !(cuffs[index].notifySessions[key] ?? []).contains(client) else { return }
        let first = !cuffs[index].isNotifying(key)
        cuffs[index].notifySessions[key, default: []].insert(client)
        guard first else { return }
        await update(path, Bluez.gattCharacteristic, ["Notifying": .boolean(true)])
        log("\(name(index)) 0x\(key.shortUUID) \(characteristic.flags.contains("indicate") ? "indications" : "notifications") enabled by \(client)")
        Task { await self.configurationEnabled(index, key) }
    }

    func stopNotify(at path: DBusObjectPath, client: String) async throws(DBusError) {
        let (index, characteristic) = try cuffIndex(attribute: path)
        guard (cuffs[index].notifySessions[characteristic.characteristic] ?? []).contains(client) else {
            throw BluezError.failed("No notify session started")
        }
        await endNotifySession(index, characteristic.characteristic, client: client)
    }

    func endNotifySession(_ index: Int, _ characteristic: HealthCharacteristic, client: String) async {
        guard cuffs[index].notifySessions[characteristic]?.remove(client) != nil, !cuffs[index].isNotifying(characteristic),
              cuffs[index].connected, let emulated = cuffs[index].layout.characteristic(characteristic) else { return }
        await update(emulated.path, Bluez.gattCharacteristic, ["Notifying": .boolean(false)])
    }

    /// The cuff sees its CCCD written: a cuff that re-sends its history indicates every stored
    /// record, and the first time its script starts.
    func configurationEnabled(_ index: Int, _ characteristic: HealthCharacteristic) async {
        guard characteristic == cuffs[index].scriptTrigger else { return }
        if characteristic == .bloodPressureMeasurement {
            for record in cuffs[index].spec.storedRecords {
                await send(index, characteristic, record.bytes, kind: "indicated (stored record)")
            }
        }
        guard !cuffs[index].timelineStarted else { return }
        cuffs[index].timelineStarted = true
        let timeline = cuffs[index].spec.timeline
        Task { await self.play(timeline, cuff: index) }
    }

    /// A notification or indication: `PropertiesChanged` on `Value`, even when the value is the
    /// same as before (§7). Without a link or a session the cuff's packet goes nowhere.
    func send(_ index: Int, _ characteristic: HealthCharacteristic, _ value: [UInt8], kind: String) async {
        guard cuffs[index].connected, cuffs[index].isNotifying(characteristic),
              let emulated = cuffs[index].layout.characteristic(characteristic) else {
            log("\(name(index)) 0x\(characteristic.shortUUID) \(hex(value)) dropped: not connected or not subscribed")
            return
        }
        cuffs[index].values[characteristic] = value
        await update(emulated.path, Bluez.gattCharacteristic, ["Value": .bytes(value)])
        log("\(name(index)) 0x\(characteristic.shortUUID) \(kind): \(hex(value))")
    }

    /// Runs a cuff's script, each step at its time counted from the start.
    func play(_ timeline: [TimelineStep], cuff index: Int) async {
        let start = ContinuousClock.now
        for step in timeline {
            try? await Task.sleep(until: start + .milliseconds(Int((step.after * 1000).rounded())), clock: .continuous)
            switch step.action {
            case .notify(let characteristic, let value):
                await send(index, characteristic, value.bytes, kind: "notified")
            case .indicate(let characteristic, let value):
                await send(index, characteristic, value.bytes, kind: "indicated")
            case .disconnect:
                await dropLink(index, byHost: false)
            case .advertise:
                cuffs[index].advertising = true
                log("\(name(index)) advertising")
                await cuffAdvertised(index)
            case .restartBluez:
                await restart()
            }
        }
    }
}

func hex(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }.joined(separator: " ")
}
