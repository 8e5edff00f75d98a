import BlueZ
import FoundationEssentials
import GATTHealth

/// Record download from an Omron cuff through Omron's own service, ecbe3980 or 0xFE4A (docs/omron.md §6): on every
/// connection, unlock (with the pairing key, the token, or not at all, per model), start, read the clock and the per-user counters, read each user's unread slots in blocks, decode
/// them into readings, mark them read, set the clock, end. Models without counters are read whole; the store's dedupe keeps each
/// record once. While cuffd pairs the cuff, anything that keeps it from unlocking the memory — a model cuffd
/// cannot read, a cuff not in pairing mode, a key or token refused or not answered — refuses the pairing in words
/// (``Cuff/omronRefusal``), and `pair` removes the bond.
extension CuffGateway {
    /// How often a packet is sent before the download gives up (docs/omron.md §3).
    static let omronAttempts = 3

    func downloadOmron(_ id: DeviceID) async {
        let address = id.address
        guard let cuff = state.cuffs[address] else { return }
        let inbox = cuff.omronInbox
        var unlocked = false
        var tally = OmronTally()
        do {
            let name = [cuff.device.name, state.records[address]?.identity?.model].compactMap { $0 }
            // The services resolved on this link count too: a cuff may advertise only 0x1810 (hass-omron `devices.py`
            // `is_advertisement_compatible`).
            let services = cuff.device.uuids + (await bluetooth.device(id)?.uuids ?? [])
            guard let model = name.lazy.compactMap({ OmronModel.named($0, offering: services) }).first else {
                // A model refused by name (docs/compatibility.md) says why; any other, which models cuffd reads.
                if let refusal = name.lazy.compactMap({ CuffCatalog.omronRefusal($0, offering: services) }).first {
                    throw OmronDownloadError.refusedModel(refusal)
                }
                throw OmronDownloadError.unknownModel(cuff.device.name ?? address.description, services: services)
            }
            await inbox.use(model.stack)
            // The services resolve one by one (docs/reference/BLUEZ-DBUS.md §6): Omron's may come after the health ones.
            let bluetooth = bluetooth
            _ = await wait(upTo: Self.servicesTimeout, until: { await bluetooth.characteristic(model.stack.receiveChannels[0], of: id) != nil })
            if !Task.isCancelled { _ = await notifying(id) }
            guard !Task.isCancelled else { return }
            if broker.isPairing(address), model.stack == .classic { try await programOmronKey(id, inbox) }
            if model.stack.needsUnlock {
                try await unlockOmron(model.stack, id, inbox)
                unlocked = true
            }
            _ = try await exchange(.start, model.stack, id, inbox)
            // On a cuff without unlock (docs/omron.md §7), the first answer is what shows the bond serves.
            unlocked = true
            if broker.isPairing(address) { state.cuffs[address]?.omronUnlocked = true }
            let clockBlock = try await readOmronClock(model, id, inbox)
            let counters = model.hasCounters
                ? try OmronCounters(decoding: try await exchange(.read(model.settingsReadAddress, count: UInt8(model.counterBlockSize)), model.stack, id, inbox).data, model: model)
                : nil
            for user in 0 ..< model.users {
                let slots = counters?.unreadSlots(user: user, slotsPerUser: model.slotsPerUser) ?? Array(0 ..< model.slotsPerUser)
                try await readSlots(slots, user: user, model: model, id, inbox, &tally)
            }
            if let counters, counters.unread.contains(where: { $0 > 0 }) {
                let reset = OmronCounters.resetUnread(model: model)
                _ = try await exchange(.write(model.settingsWriteAddress + reset.offset, reset.bytes), model.stack, id, inbox)
            }
            if let clockBlock { try await writeOmronClock(model, block: clockBlock, id, inbox) }
            _ = try await exchange(.end, model.stack, id, inbox)
            emit(.recordsDownloaded(address, count: tally.records))
            if let skipped = tally.skippedDescription { emit(.problem(address, skipped)) }
            reportBattery(tally, address)
        } catch {
            // Asked now, not before the awaits: the pairing may have ended meanwhile.
            if broker.isPairing(address) {
                if unlocked { state.cuffs[address]?.omronDownloadStop = (tally.records, "\(error)") } else { state.cuffs[address]?.omronRefusal = "\(error)" }
            }
            emit(.problem(address, "the Omron download stopped: \(error)"))
        }
    }

    /// Reads `slots` of `user` in runs of neighbouring slots, each read at most the model's block, and hands
    /// every record to the session; erased slots and impossible records are counted, never stored.
    private func readSlots(
        _ slots: [Int], user: Int, model: OmronModel, _ id: DeviceID, _ inbox: OmronInbox, _ tally: inout OmronTally
    ) async throws(OmronDownloadError) {
        let size = model.layout.size
        let perRead = max(model.blockSize / size, 1)
        var start = 0
        while start < slots.count {
            var end = start + 1
            while end < slots.count, end - start < perRead, slots[end] == slots[end - 1] + 1 { end += 1 }
            let address = model.address(user: user, slot: slots[start])
            let data = try await exchange(.read(address, count: UInt8((end - start) * size)), model.stack, id, inbox).data
            for offset in 0 ..< end - start {
                let bytes = Array(data[offset * size ..< (offset + 1) * size])
                await handOver(bytes, user: user, model: model, id.address, &tally)
            }
            start = end
        }
    }

    private func handOver(_ bytes: [UInt8], user: Int, model: OmronModel, _ address: BluetoothAddress, _ tally: inout OmronTally) async {
        guard let session = state.cuffs[address]?.session else { return }
        do {
            let record = try OmronRecord(decoding: bytes, model: model)
            tally.records += 1
            if tally.newest.map({ Self.order(record.time) >= Self.order($0.time) }) ?? true { tally.newest = record }
            await publish(address, await session.handle(.omronRecord(user: UInt8(user + 1), record, slot: bytes, receivedAt: now())))
        } catch .erasedSlot {
            tally.erased += 1
        } catch {
            tally.impossible.append("\(Hex.bytes(bytes, separator: "")) (\(error))")
        }
    }

    /// Says once, when it turns on, that the newest record downloaded asks for new batteries (hass-omron's
    /// "Battery" sensor reads the newest record's bit the same way, `parser.py`); a later download whose newest
    /// record has the bit clear turns it off again, silently.
    private func reportBattery(_ tally: OmronTally, _ address: BluetoothAddress) {
        guard let newest = tally.newest, let wasLow = state.cuffs[address]?.omronBatteryLow else { return }
        state.cuffs[address]?.omronBatteryLow = newest.lowBattery
        guard newest.lowBattery, !wasLow else { return }
        emit(.problem(address, "the cuff's batteries are low: its record of \(newest.time.isoString ?? "an unknown time") says they should be replaced"))
    }

    /// A wall-clock time's fields in the order they sort.
    private static func order(_ time: DateTime) -> (UInt16, UInt8, UInt8, UInt8, UInt8, UInt8) {
        (time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
    }

    /// Sends `request` in pieces on `stack`'s transmit channels and waits for its answer, at most
    /// ``omronAttempts`` times: no answer, a bad check byte or an answer to something else each cost a try.
    /// On the 0xFE4A service the one piece goes as a Write Command, as hass-omron writes it (`omron_driver.py`
    /// `_write_command_and_wait_reply`, `response=False`; docs/omron.md §3).
    func exchange(_ request: OmronPacket, _ stack: OmronStack, _ id: DeviceID, _ inbox: OmronInbox) async throws(OmronDownloadError) -> OmronPacket {
        var last = "no answer"
        for _ in 0 ..< Self.omronAttempts {
            await inbox.clear()
            for (channel, piece) in request.pieces(stack).enumerated() {
                do {
                    try await bluetooth.writeValue(piece, to: stack.transmitChannels[channel], of: id, type: stack == .classic ? .request : .command)
                } catch {
                    throw .bluez(error)
                }
            }
            switch await inbox.next(within: Self.omronAnswerTimeout, on: clock) {
            case .packet(.success(let answer))?:
                do throws(OmronError) {
                    try answer.validate(answering: request)
                    return answer
                } catch {
                    last = error.description
                }
            case .packet(.failure(let error))?: last = error.description
            default: last = "no answer within \(Self.omronAnswerTimeout)"
            }
        }
        throw .noAnswer("packet 0x\(Hex.digits(request.type)) at 0x\(Hex.digits(request.address)): \(last), \(Self.omronAttempts) times; nothing of that block was stored")
    }

    /// An Omron notification: unlock answers and receive-channel pieces go to the download waiting for them.
    func omronNotification(_ address: BluetoothAddress, _ uuid: String, _ bytes: [UInt8]) async {
        guard let inbox = state.cuffs[address]?.omronInbox else { return }
        if uuid == OmronService.unlock {
            await inbox.unlockAnswer(bytes)
        } else if let channel = OmronService.receiveChannels.firstIndex(of: uuid) {
            await inbox.piece(bytes, channel: channel)
        }
    }
}

/// What one Omron download found: records handed to the session, and slots skipped.
struct OmronTally {
    var records = 0
    /// The record with the latest time stamp.
    var newest: OmronRecord?
    var erased = 0
    /// Each impossible record's bytes and reason.
    var impossible: [String] = []

    /// One line for the journal when something was skipped.
    var skippedDescription: String? {
        guard erased > 0 || !impossible.isEmpty else { return nil }
        let nonsense = impossible.isEmpty ? "" : ": " + impossible.joined(separator: "; ")
        return "skipped \(erased) erased Omron slot(s) (all FF) and \(impossible.count) record(s) that decode to nonsense\(nonsense)"
    }
}
