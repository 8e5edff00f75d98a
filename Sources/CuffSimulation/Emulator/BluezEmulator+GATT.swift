import BlueZ
import DBus
import GATTHealth

/// GattCharacteristic1 reads, writes and notify sessions, and the values the cuff sends
/// (`src/gatt-client.c`, docs/reference/BLUEZ-DBUS.md §7–§8). bluetoothd forwards reads and write requests to the cuff,
/// which refuses what its characteristic does not allow with an ATT error (``ATTError``).
extension BluezEmulator {
    func readValue(at path: DBusObjectPath, options: DBusProperties) async throws(DBusError) -> [UInt8] {
        let (index, characteristic) = try cuffIndex(attribute: path)
        let offset: Int
        do {
            offset = Int(try options.property("offset", as: UInt16.self) ?? 0)
        } catch {
            throw BluezError.invalidArguments()
        }
        guard characteristic.isReadable else { throw ATTError.readNotPermitted.dbusError }
        try await requireEncryption(index, for: characteristic)
        let value: [UInt8]
        if cuffs[index].recording != nil {
            value = try recordedRead(index, characteristic)
        } else if characteristic.id == .assigned(.currentTime) {
            value = readClock(index)
        } else {
            value = cuffs[index].values[characteristic.id] ?? []
        }
        guard offset <= value.count else { throw ATTError.invalidOffset.dbusError }
        // A read updates the cached Value, which notifies like a notification does (§7).
        await update(path, Bluez.gattCharacteristic, ["Value": .bytes(value)])
        return Array(value[offset...])
    }

    func writeValue(_ value: [UInt8], options: DBusProperties, at path: DBusObjectPath) async throws(DBusError) {
        let (index, characteristic) = try cuffIndex(attribute: path)
        let label = "\(name(index)) \(characteristic.id.label)"
        let procedure = try WriteProcedure(options: options, flags: characteristic.flags)
        if cuffs[index].recording != nil { return try recordedWrite(index, characteristic, value, procedure: procedure) }
        guard procedure == .request else {
            // Only Omron's 0xFE4A channels take Write Commands; a refusal has no answer to go in.
            guard characteristic.flags.contains("write-without-response"), (try? await requireEncryption(index, for: characteristic)) != nil else {
                log("\(label) Write Command ignored: \(Hex.bytes(value))")
                return
            }
            do throws(ATTError) {
                try await writeVendor(index, characteristic.id, value)
            } catch {
                log("\(label) Write Command of \(Hex.bytes(value)) dropped: ATT error 0x\(Hex.bytes([error.rawValue]))")
            }
            return
        }
        guard characteristic.isWritable else { throw ATTError.writeNotPermitted.dbusError }
        try await requireEncryption(index, for: characteristic)
        do throws(ATTError) {
            switch characteristic.id {
            case .assigned(.currentTime): try setClock(index, value)
            case .assigned(.dateTime): try setDateTimeClock(index, value)
            case .aAndDCommand: commandAAndD(index, value)
            case .microlifeCommand: try await commandMicrolife(index, value)
            case .assigned(.recordAccessControlPoint): try requestRecordAccess(index, value)
            case .qardioArmControl: try await commandQardioArm(index, value)
            case .omronUnlock, .omronTransmit: try await writeVendor(index, characteristic.id, value)
            case .assigned(.heartRateControlPoint):
                // Only 0x01 is defined; anything else is ATT error 0x80 (docs/reference/GATT-HEALTH.md §9).
                guard value.count == 1, HeartRateControlPoint(rawValue: value[0]).isSupported else { throw ATTError.controlPointValueNotSupported }
                log("\(label) written: \(Hex.bytes(value)) (Energy Expended reset)")
            default:
                cuffs[index].values[characteristic.id] = value
                log("\(label) written: \(Hex.bytes(value))")
            }
        } catch {
            log("\(label) write of \(Hex.bytes(value)) refused: ATT error 0x\(Hex.bytes([error.rawValue]))")
            throw error.dbusError
        }
    }

    /// A write to an Omron characteristic, as a Write Request or (0xFE4A) a Write Command.
    private func writeVendor(_ index: Int, _ id: CharacteristicID, _ value: [UInt8]) async throws(ATTError) {
        switch id {
        case .omronUnlock: try await writeOmronUnlock(index, value)
        case .omronTransmit(let channel): try await writeOmronChannel(index, channel: channel, value)
        default: throw .writeNotPermitted
        }
    }

    func readConfiguration(at path: DBusObjectPath) throws(DBusError) -> [UInt8] {
        let (index, characteristic) = try cuffIndex(attribute: path)
        guard cuffs[index].isNotifying(characteristic.id) else { return [0, 0] }
        return characteristic.indicates ? [2, 0] : [1, 0]
    }

    /// One session per client; a second StartNotify from the same client succeeds (§7). On a cuff that
    /// protects the characteristic, bluetoothd's CCCD write first needs a paired link (security elevation);
    /// if that fails, StartNotify fails with the CCCD write's error and no session is kept.
    func startNotify(at path: DBusObjectPath, client: String) async throws(DBusError) {
        let (index, characteristic) = try cuffIndex(attribute: path)
        guard characteristic.canNotify else { throw BluezError.notSupported("Operation is not supported") }
        let key = characteristic.id
        guard !(cuffs[index].notifySessions[key] ?? []).contains(client) else { return }
        if !cuffs[index].isNotifying(key) { try await requireEncryption(index, for: characteristic) }
        let first = !cuffs[index].isNotifying(key)
        cuffs[index].notifySessions[key, default: []].insert(client)
        // On a bonded cuff that is away the session waits: bluetoothd enables it when the cuff is back (§7).
        guard first, cuffs[index].connected else { return }
        await update(path, Bluez.gattCharacteristic, ["Notifying": .boolean(true)])
        log("\(name(index)) \(key.label) \(characteristic.indicates ? "indications" : "notifications") enabled by \(client)")
        spawn { await self.configurationEnabled(index, key) }
    }

    func stopNotify(at path: DBusObjectPath, client: String) async throws(DBusError) {
        let (index, characteristic) = try cuffIndex(attribute: path)
        guard (cuffs[index].notifySessions[characteristic.id] ?? []).contains(client) else {
            throw BluezError.failed("No notify session started")
        }
        await endNotifySession(index, characteristic.id, client: client)
    }

    func endNotifySession(_ index: Int, _ characteristic: CharacteristicID, client: String) async {
        guard cuffs[index].notifySessions[characteristic]?.remove(client) != nil, !cuffs[index].isNotifying(characteristic),
              cuffs[index].connected, let emulated = cuffs[index].layout.characteristic(characteristic) else { return }
        cuffs[index].recording?.unsubscribed(characteristic.uuid)
        await update(emulated.path, Bluez.gattCharacteristic, ["Notifying": .boolean(false)])
    }

    /// The cuff sees its CCCD written: a cuff that re-sends its history indicates every stored
    /// record, and the first time its script starts; a recorded cuff sends what it held for the session.
    func configurationEnabled(_ index: Int, _ characteristic: CharacteristicID) async {
        if cuffs[index].recording != nil { return await recordedSubscription(index, characteristic) }
        guard characteristic == cuffs[index].scriptTrigger else { return }
        if characteristic == .assigned(.bloodPressureMeasurement) {
            for record in cuffs[index].spec.storedRecords {
                await send(index, characteristic, record.bytes, kind: "indicated (stored record)")
            }
        }
        startTimeline(index)
    }

    /// Starts the cuff's timeline, the first time only.
    func startTimeline(_ index: Int) {
        guard !cuffs[index].timelineStarted else { return }
        cuffs[index].timelineStarted = true
        let timeline = cuffs[index].spec.timeline
        spawn { await self.play(timeline, cuff: index) }
    }

    /// A notification or indication: `PropertiesChanged` on `Value`, even when the value is the
    /// same as before (§7). Without a link or a session the cuff's packet goes nowhere.
    func send(_ index: Int, _ characteristic: CharacteristicID, _ value: [UInt8], kind: String) async {
        guard cuffs[index].connected, cuffs[index].isNotifying(characteristic),
              let emulated = cuffs[index].layout.characteristic(characteristic) else {
            log("\(name(index)) \(characteristic.label) \(Hex.bytes(value)) dropped: not connected or not subscribed")
            return
        }
        cuffs[index].values[characteristic] = value
        await update(emulated.path, Bluez.gattCharacteristic, ["Value": .bytes(value)])
        log("\(name(index)) \(characteristic.label) \(kind): \(Hex.bytes(value))")
    }

    /// Runs a script (a cuff's timeline, or what it does after a vendor start), each step at its time
    /// counted from the start; a `pressStart` step that waited for a driver moves the steps after it by as long.
    /// Returns false when the task was canceled before the last step.
    @discardableResult
    func play(_ steps: [TimelineStep], cuff index: Int) async -> Bool {
        var start = ContinuousClock.now
        for step in steps {
            let after = Duration.milliseconds(Int((step.after * 1000).rounded()))
            do {
                try await Task.sleep(until: start + after, clock: .continuous)
            } catch {
                return false
            }
            if step.action == .pressStart {
                await waitForStart(cuff: index)
                start = .now - after
            }
            await perform(step.action, cuff: index)
        }
        return true
    }

    /// Does what a step does when its time comes.
    func perform(_ action: TimelineStep.Action, cuff index: Int) async {
        switch action {
        case .notify(let characteristic, let value):
            await send(index, .assigned(characteristic), value.bytes, kind: "notified")
        case .indicate(let characteristic, let value):
            await send(index, .assigned(characteristic), value.bytes, kind: "indicated")
        case .disconnect:
            // A cuff ends the link once the stored-record report it is sending has ended, not in its middle.
            await cuffs[index].recordProcedure?.value
            await dropLink(index, byHost: false)
        case .advertise:
            guard !cuffs[index].switchedOff else { return log("\(name(index)) is switched off: it does not advertise") }
            cuffs[index].advertising = true
            log("\(name(index)) advertising")
            await cuffAdvertised(index)
        case .restartBluez:
            await restart()
        case .pressStart:
            log("\(name(index)) START pressed")
        case let .measure(user, slot):
            guard let model = cuffs[index].omron?.model else { return }
            cuffs[index].omron?.measure(slot.bytes(model.layout), user: user - 1)
            log("\(name(index)) Omron user \(user) measured: \(Hex.bytes(slot.bytes(model.layout)))")
        }
    }

    /// Does `action` now for the cuff at `address`, as a timeline step would: for tests that drive a cuff step by
    /// step, each step once the state it needs is there rather than at a time. Nothing for an unknown address.
    public func perform(_ action: TimelineStep.Action, cuffAt address: BluetoothAddress) async {
        guard let index = cuffs.firstIndex(where: { $0.spec.address == address }) else { return }
        await perform(action, cuff: index)
    }
}
