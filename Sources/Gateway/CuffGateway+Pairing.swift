import BlueZ
import GATTHealth

/// Scanning, pairing and forgetting cuffs (docs/reference/BLUEZ-DBUS.md §2, §5): what `cuffctl scan`, `pair` and
/// `forget` ask for.
extension CuffGateway {
    /// Discovers cuffs (Blood Pressure or Heart Rate service) for `duration` and returns what was seen,
    /// known cuffs and new ones alike.
    public func scan(for duration: Duration) async throws(GatewayError) -> [Device] {
        let adapter = try usableAdapter()
        do {
            try await bluez.startDiscovery(on: adapter.address, filter: Self.cuffFilter)
        } catch {
            throw .bluez(error)
        }
        try? await Task.sleep(for: duration)
        await bluez.stopDiscovery(on: adapter.address)
        return await bluez.devices.filter { device in
            device.id.adapter == adapter.address && !Set(device.uuids).isDisjoint(with: Self.cuffFilter.uuids)
        }
    }

    /// Pairs the cuff at `address` and trusts it, so it is auto-connected whenever it wakes, and returns once
    /// what the pairing link brought (who the cuff is, its clock, its stored records) is stored. A cuff not in
    /// bluetoothd's tree yet is discovered first (within `timeout`). `passkey` is the key the cuff
    /// displays, when the person gave it up front; otherwise a passkey request is relayed through
    /// ``GatewayEvent/passkeyRequested(_:)`` and answered with ``providePasskey(_:for:)``. While cuffd pairs,
    /// its agent speaks `KeyboardDisplay` so passkey cuffs can be typed in; it is `NoInputNoOutput` again
    /// afterwards (docs/reference/BLUEZ-DBUS.md §5).
    public func pair(_ address: BluetoothAddress, passkey: UInt32?, timeout: Duration) async throws(GatewayError) -> CuffStatus {
        let adapter = try usableAdapter()
        let id = DeviceID(adapter: adapter.address, address: address)
        guard !broker.isPairing(address) else { throw .busy("pairing \(address)") }
        // Taken before the broker expects the pairing: from then on, its events adopt the device.
        let collectedBefore = state.cuffs[address] != nil
        broker.expect(address, passkey: passkey)
        defer { broker.finished(address) }
        if await bluez.device(id) == nil { try await discover(id, within: timeout) }
        guard let device = await bluez.device(id) else { throw .unknownCuff(address) }
        // A device cuffd did not collect from before is adopted for this pairing only: if it fails, nothing of
        // it stays (the link, the adoption, a bond bluetoothd made before setting it trusted).
        let adoptedForPairing = !collectedBefore && !device.paired && !configuration.knownCuffs.contains(address)
        await consider(device)
        state.cuffs[address]?.omronRefusal = nil
        state.cuffs[address]?.omronUnlocked = false
        await bluez.setAgentCapability(.keyboardDisplay)
        do {
            try await bluez.pair(id, timeout: timeout)
            try await bluez.setTrusted(id, true)
        } catch {
            await bluez.setAgentCapability(.noInputNoOutput)
            if adoptedForPairing { try? await forget(address) }
            throw .bluez(error)
        }
        await bluez.setAgentCapability(.noInputNoOutput)
        if let device = await bluez.device(id) { await deviceChanged(device, ["Paired", "Trusted"]) }
        // Pair may reply before service discovery ends; a cuff that drops the link first is fine too.
        if (try? await bluez.waitForServicesResolved(id, timeout: timeout)) != nil { startProvisioning(address) }
        // Pair resolves services on its link: return once that link's identity, clock and stored records
        // are in, so a `start` that follows waits for a new measurement, not for this history.
        await state.cuffs[address]?.provisioning?.value
        if let refusal = omronPairingRefusal(address) {
            // No half-made bond: the cuff never took cuffd's key (docs/omron.md §6).
            try? await forget(address)
            throw .refused(address, refusal)
        }
        guard let status = await status(address) else { throw .unknownCuff(address) }
        return status
    }

    /// Why pairing an Omron cuff is not complete once its first link's provisioning ended: the download said
    /// why (``Cuff/omronRefusal``), or the link went before the memory was unlocked (docs/omron.md §6). Nil for
    /// a cuff whose memory cuffd unlocked, and for every other cuff.
    private func omronPairingRefusal(_ address: BluetoothAddress) -> String? {
        guard let cuff = state.cuffs[address], OmronStack.isOffered(in: cuff.device.uuids) else { return nil }
        if let refusal = cuff.omronRefusal { return refusal }
        guard !cuff.omronUnlocked else { return nil }
        let step = state.records[address]?.omronKey == nil && cuff.device.uuids.contains(OmronService.uuid)
            ? "program its pairing key" : "unlock its memory"
        return "the link to the cuff ended before cuffd could \(step); hold its Bluetooth button until \"P\" blinks, then pair again"
    }

    /// The passkey a person read off the cuff, for the pairing waiting on it.
    public func providePasskey(_ passkey: UInt32, for address: BluetoothAddress) throws(GatewayError) {
        guard broker.provide(passkey, for: address) else { throw .unknownCuff(address) }
    }

    /// Forgets a cuff: notifications off, the bond removed from bluetoothd (`RemoveDevice`), what cuffd
    /// remembered about it dropped — also when bluetoothd dropped the device already (`bluetoothctl remove`), so that
    /// it leaves ``rememberedCuffs``. Readings already stored stay.
    public func forget(_ address: BluetoothAddress) async throws(GatewayError) {
        let adapter = try usableAdapter()
        let id = DeviceID(adapter: adapter.address, address: address)
        let known = await bluez.device(id) != nil
        guard state.cuffs[address] != nil || known || state.records[address] != nil else { throw .unknownCuff(address) }
        guard state.beginForgetting(address) else { throw .busy("forgetting \(address)") }
        defer { state.endForgetting(address) }
        await bluez.stopNotifying(id)
        await linkLost(address)
        state.cuffs[address] = nil
        state.records[address] = nil
        do {
            try await registry.remove(address)
        } catch {
            // Forgotten all the same, until cuffd restarts and reads the registry it could not change.
            emit(.problem(address, "cannot save that cuffd forgot the cuff (it is remembered again when cuffd restarts): \(error)"))
        }
        if known {
            do {
                try await bluez.remove(id)
            } catch {
                throw .bluez(error)
            }
        }
        emit(.cuffRemoved(address))
    }

    private func discover(_ id: DeviceID, within timeout: Duration) async throws(GatewayError) {
        do {
            try await bluez.startDiscovery(on: id.adapter, filter: DiscoveryFilter(uuids: []))
        } catch {
            throw .bluez(error)
        }
        let deadline = ContinuousClock.now + timeout
        while await bluez.device(id) == nil, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        await bluez.stopDiscovery(on: id.adapter)
        guard await bluez.device(id) != nil else { throw .unknownCuff(id.address) }
    }

    func usableAdapter() throws(GatewayError) -> Adapter {
        guard let adapter = state.adapter else { throw .bluetoothUnavailable("no adapter, or bluetoothd is not running") }
        guard adapter.powered else { throw .bluetoothUnavailable("adapter \(adapter.interfaceName) is powered off (rfkill? bluetoothctl power on)") }
        return adapter
    }

    static let cuffFilter = DiscoveryFilter(uuids: [HealthService.bloodPressure.uuid, HealthService.heartRate.uuid] + OmronStack.serviceUUIDs)
}
