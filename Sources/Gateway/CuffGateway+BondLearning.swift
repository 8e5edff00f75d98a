import BlueZ
import GATTHealth

/// Cuffs of a model whose bond the sources disagree on (``OmronModel/learnsBond``: the Omron HEM-7380T1, docs/omron.md §6,
/// docs/reference/GATT-HEALTH.md §13.13): cuffd keeps the bond, as for every cuff, and learns from the links after the
/// pairing one which of the two the cuff does. Until it knows, it keeps discovery on for the model's service, and when
/// bluetoothd shows the cuff advertising without a link it asks for one (`Connect`): bluetoothd's auto-connect fails
/// silently when the cuff forgot its key, `Connect` says `AuthenticationFailed` (docs/reference/BLUEZ-DBUS.md §5). A
/// link that reads the cuff over the kept bond shows it keeps it ( ``LearnedBond/kept``: discovery off, never paired
/// again); an `AuthenticationFailed` shows it forgot it (``LearnedBond/forgotten``): from then on the cuff bonds anew on
/// every link (``rebondingModel(_:)``). What was learned is in the cuff registry; `forget` drops it with the cuff.
extension CuffGateway {
    /// The model of the cuff at `address` if cuffd learns its bond and has not learned it yet; nil for every other cuff.
    func unlearnedBondModel(_ address: BluetoothAddress) -> OmronModel? {
        guard let record = state.records[address], record.bond == nil, let identity = record.identity else { return nil }
        return [identity.model, identity.name].compactMap { $0 }.lazy.compactMap { OmronModel.named($0) }.first { $0.learnsBond }
    }

    /// Whether discovery stays on for the cuff at `address`: it bonds anew on every link, or cuffd learns its bond.
    func watchedForBond(_ address: BluetoothAddress) -> Bool {
        rebondingModel(address) != nil || unlearnedBondModel(address) != nil
    }

    /// A link read the cuff at `address`. The pairing's link starts the learning (discovery on, its model now known);
    /// any later one ran over the bond: the cuff keeps it, and cuffd never pairs it again (discovery off).
    func omronLinkRead(_ address: BluetoothAddress) async {
        guard unlearnedBondModel(address) != nil, var record = state.records[address] else { return }
        if !broker.isPairing(address) {
            record.bond = .kept
            await remember(record)
        }
        await watchForRebonding()
    }

    /// bluetoothd shows the cuff, bonded, advertising (`RSSI`, found by discovery) without a link: cuffd asks for one, one
    /// request at a time, none while `pair` or `forget` has the cuff. A kept bond links (auto-connect may be first:
    /// `Connect` then fails as under way, and nothing is learned); a forgotten one fails with `AuthenticationFailed`.
    func askForLinkOverBond(_ device: Device, _ changed: Set<String>) async {
        let address = device.id.address
        guard changed.contains("RSSI"), device.paired, !device.connected, unlearnedBondModel(address) != nil,
              state.cuffs[address]?.bondProbe == nil, !broker.isPairing(address), !state.forgetting.contains(address)
        else { return }
        state.cuffs[address]?.bondProbe = Task { [weak self] in await self?.probeBond(device.id) }
    }

    private func probeBond(_ id: DeviceID) async {
        defer { state.cuffs[id.address]?.bondProbe = nil }
        do {
            try await bluetooth.connect(id)
        } catch where error.kind == .authenticationFailed {
            await bondForgotten(id)
        } catch {
            // Not what a forgotten key gives: the next advertisement asks again.
        }
    }

    /// The cuff forgot the bond bluetoothd kept: remembered in the registry, said once in the journal, and the bond
    /// removed, so that the cuff is paired anew when it advertises, as a ``OmronModel/bondsAnewEveryLink`` cuff is.
    private func bondForgotten(_ id: DeviceID) async {
        guard unlearnedBondModel(id.address) != nil, state.cuffs[id.address] != nil, !state.forgetting.contains(id.address),
              var record = state.records[id.address]
        else { return }
        record.bond = .forgotten
        await remember(record)
        emit(.bondForgotten(id.address))
        await dropBond(id)
    }
}
