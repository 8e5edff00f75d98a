import BlueZ
import GATTHealth

/// Scanning, pairing and forgetting cuffs (docs/reference/BLUEZ-DBUS.md §2, §5): what `cuffctl scan`, `pair` and
/// `forget` ask for.
extension CuffGateway {
    /// Discovers cuffs (the services the catalog's models and families advertise) for `duration` and returns what
    /// was seen, known cuffs and new ones alike, each with what cuffd recognises it as (``CuffCatalog``). With
    /// `awaited` addresses, the scan ends as soon as every one of them is among what it would return — a cuff
    /// bluetoothd holds already counts at once —, and at `duration` at the latest (`cuffctl scan --until`,
    /// docs/cuffctl.md): the caller tells the ones missing from the list.
    public func scan(for duration: Duration, until awaited: Set<BluetoothAddress> = []) async throws(GatewayError) -> [ScannedCuff] {
        let adapter = try usableAdapter()
        do {
            try await bluetooth.startDiscovery(on: adapter.address, filter: Self.cuffFilter)
        } catch {
            throw .bluez(error)
        }
        let bluetooth = bluetooth
        let seen: @Sendable () async -> [ScannedCuff] = {
            await bluetooth.devices.filter { $0.id.adapter == adapter.address }.compactMap(ScannedCuff.init)
        }
        if awaited.isEmpty {
            try? await clock.sleep(for: duration)
        } else {
            _ = await wait(upTo: duration, until: { awaited.isSubset(of: await seen().map(\.device.id.address)) })
        }
        await endDiscovery(on: adapter.address)
        return await seen()
    }

    /// Pairs the cuff at `address` and trusts it, so it is auto-connected whenever it wakes, and returns once
    /// what the pairing link brought (who the cuff is, its clock, its stored records) is stored. A cuff not in
    /// bluetoothd's tree yet is discovered first (within `timeout`). `passkey` is the key the cuff
    /// displays, when the person gave it up front; otherwise a passkey request is relayed through
    /// ``GatewayEvent/passkeyRequested(_:)`` and answered with ``providePasskey(_:for:)``. While cuffd pairs,
    /// its agent speaks `KeyboardDisplay` so passkey cuffs can be typed in; it is `NoInputNoOutput` again
    /// afterwards (docs/reference/BLUEZ-DBUS.md §5). An Omron cuff whose memory was unlocked but whose download then
    /// stopped stays paired, and `pair` says so with ``GatewayError/downloadStopped(_:records:_:)``.
    public func pair(_ address: BluetoothAddress, passkey: UInt32?, timeout: Duration) async throws(GatewayError) -> CuffStatus {
        let result: Result<CuffStatus, GatewayError>
        do {
            result = .success(try await bond(address, passkey: passkey, timeout: timeout))
        } catch {
            result = .failure(error)
        }
        // The pairing's conversation is over: a capture of the cuff may walk its database now.
        await letCapturesWalk()
        return try result.get()
    }

    private func bond(_ address: BluetoothAddress, passkey: UInt32?, timeout: Duration) async throws(GatewayError) -> CuffStatus {
        let adapter = try usableAdapter()
        let id = DeviceID(adapter: adapter.address, address: address)
        guard !broker.isPairing(address) else { throw .busy("pairing \(address)") }
        // Taken before the broker expects the pairing: from then on, its events adopt the device.
        let collectedBefore = state.cuffs[address] != nil
        broker.expect(address, passkey: passkey)
        defer { broker.finished(address) }
        if await bluetooth.device(id) == nil { try await discover(id, within: timeout) }
        guard let device = await bluetooth.device(id) else { throw .unknownCuff(address) }
        let model = CuffCatalog.recognise(device.advertisement)
        if let refusal = model?.refusal {
            // Refused before bluetoothd is asked anything: nothing to undo (docs/compatibility.md).
            throw .refused(address, refusal)
        }
        // A device cuffd did not collect from before is adopted for this pairing only: if it fails, nothing of
        // it stays (the link, the adoption, a bond bluetoothd made before setting it trusted).
        let adoptedForPairing = !collectedBefore && !device.paired && !configuration.knownCuffs.contains(address)
        await consider(device)
        state.cuffs[address]?.omronRefusal = nil
        state.cuffs[address]?.omronUnlocked = false
        state.cuffs[address]?.omronDownloadStop = nil
        await bluetooth.setAgentCapability(.keyboardDisplay)
        do {
            try await bluetooth.pair(id, timeout: timeout)
            try await bluetooth.setTrusted(id, true)
        } catch {
            await bluetooth.setAgentCapability(.noInputNoOutput)
            if adoptedForPairing { try? await forget(address) }
            throw .bluez(error)
        }
        await bluetooth.setAgentCapability(.noInputNoOutput)
        // The cuff's state is bluetoothd's events as the follow task handles them, in order: once it has handled the
        // bond, it is past the older ones too (a link a moment ago still down), which would otherwise tear down
        // this link's session after the fact (docs/gateway.md, "Reentrancy").
        _ = await waitForGateway(upTo: timeout, until: { await self.bondFollowed(address) })
        // Pair may reply before service discovery ends; a cuff that drops the link first is fine too.
        let bluetooth = bluetooth
        let resolved = await wait(upTo: timeout, deciding: {
            guard let device = await bluetooth.device(id), device.connected else { return false }
            return device.servicesResolved ? true : nil
        })
        if resolved { startProvisioning(address) }
        // Pair resolves services on its link: return once that link's identity, clock and stored records
        // are in, so a `start` that follows waits for a new measurement, not for this history.
        await state.cuffs[address]?.provisioning?.value
        if let refusal = omronPairingRefusal(address) {
            // No half-made bond: the cuff never took cuffd's key (docs/omron.md §6).
            try? await forget(address)
            throw .refused(address, refusal)
        }
        if let stop = state.cuffs[address]?.omronDownloadStop {
            // Paired all the same: what the download did not read waits in the cuff for its next link.
            throw .downloadStopped(address, records: stop.records, stop.reason)
        }
        if model?.behaviour.contains(.releaseAfterPairing) == true, await bluetooth.characteristic(AAndDService.command, of: id) != nil {
            // As A&D's own pairing ends (obniz `UA1200BLE.pairingWait`); the cuff may be gone before it answers.
            try? await bluetooth.writeValue(AAndDService.disconnectRequest, to: AAndDService.command, of: id)
        }
        guard let status = await status(address) else { throw .unknownCuff(address) }
        return status
    }

    /// Whether the Gateway's view of the cuff at `address` shows it paired and trusted, or there is no cuff there
    /// to wait for any more (forgotten meanwhile).
    private func bondFollowed(_ address: BluetoothAddress) -> Bool {
        state.cuffs[address].map { $0.device.paired && $0.device.trusted } ?? true
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

    /// Forgets a cuff: notifications off, the bond removed from bluetoothd (`RemoveDevice`), a pairing anew stopped, the
    /// discovery that looked for a cuff that bonds anew ended when none is left (docs/omron.md §6), what cuffd
    /// remembered about it dropped — also when bluetoothd dropped the device already (`bluetoothctl remove`), so that
    /// it leaves ``rememberedCuffs``. Readings already stored stay.
    public func forget(_ address: BluetoothAddress) async throws(GatewayError) {
        let adapter = try usableAdapter()
        let id = DeviceID(adapter: adapter.address, address: address)
        let known = await bluetooth.device(id) != nil
        guard state.cuffs[address] != nil || known || state.records[address] != nil else { throw .unknownCuff(address) }
        guard state.beginForgetting(address) else { throw .busy("forgetting \(address)") }
        defer { state.endForgetting(address) }
        await bluetooth.stopNotifying(id)
        await linkLost(address)
        state.cuffs[address]?.rebonding?.cancel()
        state.cuffs[address] = nil
        state.records[address] = nil
        do {
            try await registry.remove(address)
        } catch {
            // Forgotten all the same, until cuffd restarts and reads the registry it could not change.
            emit(.problem(address, "cannot save that cuffd forgot the cuff (it is remembered again when cuffd restarts): \(error)"))
        }
        // No cuff that bonds anew left to look for: discovery stops.
        await watchForRebonding()
        if known {
            do {
                try await bluetooth.remove(id)
            } catch {
                throw .bluez(error)
            }
        }
        emit(.cuffRemoved(address))
    }

    private func discover(_ id: DeviceID, within timeout: Duration) async throws(GatewayError) {
        do {
            try await bluetooth.startDiscovery(on: id.adapter, filter: DiscoveryFilter(uuids: []))
        } catch {
            throw .bluez(error)
        }
        let bluetooth = bluetooth
        _ = await wait(upTo: timeout, until: { await bluetooth.device(id) != nil })
        await endDiscovery(on: id.adapter)
        guard await bluetooth.device(id) != nil else { throw .unknownCuff(id.address) }
    }

    func usableAdapter() throws(GatewayError) -> Adapter {
        guard let adapter = state.adapter else { throw .bluetoothUnavailable("no adapter, or bluetoothd is not running") }
        guard adapter.powered else { throw .bluetoothUnavailable("adapter \(adapter.interfaceName) is powered off (rfkill? bluetoothctl power on)") }
        return adapter
    }

    /// The services the catalog's models and families are advertised with (``CuffCatalog/advertisedServices``).
    static let cuffFilter = DiscoveryFilter(uuids: CuffCatalog.advertisedServices)
}
