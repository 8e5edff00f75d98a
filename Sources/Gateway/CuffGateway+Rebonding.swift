import BlueZ
import GATTHealth

/// Cuffs that forget their side of the bond after every link (``OmronModel/bondsAnewEveryLink``: the Omron HEM-7188T1,
/// docs/omron.md §6, docs/reference/BLUEZ-DBUS.md §5): when a link ends, cuffd removes bluetoothd's bond (`RemoveDevice`),
/// so that bluetoothd never offers the cuff the key it forgot, and keeps the cuff collected and remembered (person,
/// model, readings); while it remembers such a cuff it keeps discovery on for the model's service, and when the cuff
/// advertises it pairs anew (`Pair`, which connects); the link then runs as every link does (token unlock, download).
extension CuffGateway {
    /// The model of the cuff at `address` if it bonds anew on every link, by what cuffd remembered of it (its advertised
    /// name or Model Number String, read on its first link); nil for every other cuff.
    func rebondingModel(_ address: BluetoothAddress) -> OmronModel? {
        guard let identity = state.records[address]?.identity else { return nil }
        return [identity.model, identity.name].compactMap { $0 }.lazy.compactMap { OmronModel.named($0) }.first { $0.bondsAnewEveryLink }
    }

    /// The link to `id` ended (or cuffd found bluetoothd bonded to a cuff not linked): a cuff that bonds anew loses
    /// bluetoothd's bond too — not while `pair` is at it, which decides on its bond itself. The cuff stays collected
    /// (``deviceRemoved(_:)``), and discovery looks for it from now on.
    func dropBond(_ id: DeviceID) async {
        guard rebondingModel(id.address) != nil, !state.forgetting.contains(id.address), !broker.isPairing(id.address),
              await bluetooth.device(id)?.paired == true
        else { return }
        do {
            try await bluetooth.remove(id)
        } catch {
            emit(.problem(id.address, "cannot remove the bond the cuff forgets after each link: \(error)"))
        }
        await watchForRebonding()
    }

    /// bluetoothd removed the device of a collected cuff: one that bonds anew stays collected, unbonded, until it
    /// advertises again; one the configuration names stays as it is; any other goes.
    func deviceRemoved(_ id: DeviceID) async {
        await linkLost(id.address)
        if rebondingModel(id.address) != nil {
            state.cuffs[id.address]?.device.paired = false
            state.cuffs[id.address]?.device.trusted = false
            if let status = await status(id.address) { emit(.cuffChanged(status)) }
        } else if !configuration.knownCuffs.contains(id.address) {
            state.cuffs[id.address] = nil
            emit(.cuffRemoved(id.address))
        }
    }

    /// Pairs anew with a cuff that bonds anew on every link once bluetoothd shows it advertising without a bond (found
    /// by discovery); one pairing at a time, none while `pair` or `forget` has it. A pairing that fails is tried again
    /// after ``GatewayConfiguration/rebondRetry``'s wait, longer after each failure, if bluetoothd still shows the cuff,
    /// else when it shows itself again.
    func rebondIfAdvertising(_ device: Device) async {
        let address = device.id.address
        guard !device.paired, !device.connected, rebondingModel(address) != nil, let cuff = state.cuffs[address], cuff.rebonding == nil,
              !broker.isPairing(address), !state.forgetting.contains(address)
        else { return }
        state.cuffs[address]?.rebonding = Task { [weak self] in await self?.rebond(device.id) }
    }

    private func rebond(_ id: DeviceID) async {
        // bluetoothd dropped the notify wishes with the device (§7): wished again before the link's services resolve.
        await bluetooth.keepNotifying(id, uuids: subscribedCharacteristics)
        do {
            try await bluetooth.pair(id, timeout: Self.rebondTimeout)
            state.cuffs[id.address]?.rebondFailures = 0
        } catch {
            let failures = (state.cuffs[id.address]?.rebondFailures ?? 0) + 1
            state.cuffs[id.address]?.rebondFailures = failures
            let wait = configuration.rebondRetry.delay(before: failures)
            emit(.problem(id.address, "pairing anew with the cuff failed: \(error); cuffd tries again when it advertises after \(wait)"))
            // Its advertisements meanwhile, several a second, start no pairing; `forget` cancels the wait. Then the
            // cuff is paired if bluetoothd still shows it (it keeps a device it saw advertise for a while), else when
            // it shows itself again.
            try? await clock.sleep(for: wait)
            state.cuffs[id.address]?.rebonding = nil
            if !Task.isCancelled, let device = await bluetooth.device(id) { await rebondIfAdvertising(device) }
            return
        }
        state.cuffs[id.address]?.rebonding = nil
    }

    /// How long a pairing anew may take (`Pair` connects, pairs and resolves services, docs/reference/BLUEZ-DBUS.md §5).
    static let rebondTimeout: Duration = .seconds(30)

    /// The services the models that bond anew advertise: discovery's filter while cuffd remembers one.
    static let rebondFilter = DiscoveryFilter(uuids: Array(Set(OmronModel.table.filter(\.bondsAnewEveryLink).map(\.stack.serviceUUID))).sorted())

    /// Keeps discovery on, filtered to ``rebondFilter``, on the adapter in use while cuffd remembers a cuff that bonds
    /// anew (its bond removed, bluetoothd finds it again only so, docs/reference/BLUEZ-DBUS.md §2); off otherwise.
    func watchForRebonding() async {
        let wanted = state.records.keys.contains { rebondingModel($0) != nil }
        guard let adapter = state.adapter, adapter.powered, wanted else {
            if let watched = state.rebondWatch {
                state.rebondWatch = nil
                await bluetooth.stopDiscovery(on: watched)
            }
            return
        }
        guard state.rebondWatch != adapter.address else { return }
        state.rebondWatch = adapter.address
        do {
            try await bluetooth.startDiscovery(on: adapter.address, filter: Self.rebondFilter)
        } catch {
            state.rebondWatch = nil
            for address in state.records.keys where rebondingModel(address) != nil {
                emit(.problem(address, "cannot look for the cuff (discovery, to pair anew when it advertises): \(error)"))
            }
        }
    }

    /// A scan or a pairing's discovery is over: the watch for cuffs that bond anew takes discovery back (its filter set
    /// again), or discovery stops.
    func endDiscovery(on adapter: BluetoothAddress) async {
        state.rebondWatch = nil
        if state.records.keys.contains(where: { rebondingModel($0) != nil }) {
            await watchForRebonding()
        } else {
            await bluetooth.stopDiscovery(on: adapter)
        }
    }
}
