import DBus

/// Device1 links and pairing (`src/device.c`, docs/reference/BLUEZ-DBUS.md §3–§6).
extension BluezEmulator {
    /// How long `Connect` waits for a cuff to advertise before it gives up the way a real
    /// controller does.
    static let connectTimeout: Duration = .seconds(2)

    func connect(device path: DBusObjectPath) async throws(DBusError) {
        let index = try cuffIndex(device: path)
        // Connect re-arms auto-connect (`doc/device-api.txt`, Disconnect).
        cuffs[index].autoConnectArmed = true
        try await establishLink(index)
    }

    func disconnect(device path: DBusObjectPath) async throws(DBusError) {
        let index = try cuffIndex(device: path)
        guard cuffs[index].connected else { throw BluezError.notConnected }
        await dropLink(index, byHost: true)
    }

    /// Brings the LE link up: waits for an advertisement, sets `Connected`, replies, and only
    /// then resolves services (`ServicesResolved` follows `Connected`, docs/reference/BLUEZ-DBUS.md §6, docs/acceptance.md).
    func establishLink(_ index: Int) async throws(DBusError) {
        guard powered else { throw BluezError.notReady }
        guard !cuffs[index].connected else { throw BluezError.alreadyConnected }
        guard !cuffs[index].connecting else { throw BluezError.inProgress }
        cuffs[index].connecting = true
        let generation = generation
        let deadline = ContinuousClock.now + Self.connectTimeout
        while !cuffs[index].advertising, ContinuousClock.now < deadline, generation == self.generation {
            try? await Task.sleep(for: .milliseconds(25))
        }
        guard generation == self.generation else { throw DBusError(.noReply, "bluetoothd exited") }
        cuffs[index].connecting = false
        guard cuffs[index].advertising else {
            log("\(name(index)) connect failed: the cuff is not advertising")
            throw BluezError.failed("le-connection-abort-by-local")
        }
        if cuffs[index].paired, cuffs[index].bondForgotten {
            // The cuff refuses the key bluetoothd offers; bluetoothd then skips auto-connect for a while (§4).
            cuffs[index].autoConnectArmed = false
            log("\(name(index)) connect failed: the cuff forgot the bond bluetoothd holds (authentication failure)")
            throw BluezError.authenticationFailed
        }
        cuffs[index].advertising = false
        cuffs[index].connected = true
        cuffs[index].removalToken += 1
        log("\(name(index)) connected")
        await update(cuffs[index].devicePath, Bluez.device, ["Connected": .boolean(true)])
        recordedLinkUp(index)
        spawn { await self.resolveServices(index, generation: generation) }
    }

    /// The order BlueZ 5.66 was measured to keep (docs/acceptance.md, "BlueZ 5.66 as measured"): a
    /// database discovered for the first time turns `ServicesResolved` true *before* its objects are
    /// exported; a known one (a bonded cuff) has its objects on the bus first, and bluetoothd re-enables
    /// the kept StartNotify sessions (§7) before `ServicesResolved`, so values can precede it.
    private func resolveServices(_ index: Int, generation: Int) async {
        try? await Task.sleep(for: .milliseconds(50))
        guard generation == self.generation, cuffs[index].connected else { return }
        let kept = cuffs[index].notifySessions.keys.filter { cuffs[index].isNotifying($0) }
        let known = cuffs[index].databaseKnown
        if !known { await update(cuffs[index].devicePath, Bluez.device, ["ServicesResolved": .boolean(true)]) }
        if !cuffs[index].servicesExported { await exportServices(index) }
        cuffs[index].databaseKnown = true
        for characteristic in kept where cuffs[index].isNotifying(characteristic) {
            await configurationEnabled(index, characteristic)
        }
        if known { await update(cuffs[index].devicePath, Bluez.device, ["ServicesResolved": .boolean(true)]) }
        log("\(name(index)) services resolved")
    }

    /// The link goes down, by the host (`Disconnect`, `RemoveDevice`) or by the cuff: `ServicesResolved`
    /// and `Connected` turn false in one signal. A bonded cuff's GATT objects stay on the bus (measured
    /// on 5.66); other cuffs' go with the link. A client disconnect of an untrusted device disarms
    /// auto-connect. A cuff that forgets its bond after each link (``CuffSpec/forgetsBondAfterLink``) does so here.
    func dropLink(_ index: Int, byHost: Bool) async {
        guard cuffs[index].connected else { return }
        advertiseAgain(index, after: cuffs[index].linkLost())
        if cuffs[index].spec.forgetsBondAfterLink, cuffs[index].paired {
            cuffs[index].bondForgotten = true
            log("\(name(index)) forgot its side of the bond")
        }
        if byHost && !cuffs[index].trusted { cuffs[index].autoConnectArmed = false }
        log("\(name(index)) disconnected \(byHost ? "by the host" : "by the cuff")")
        await update(cuffs[index].devicePath, Bluez.device, ["ServicesResolved": .boolean(false), "Connected": .boolean(false)])
        if !cuffs[index].paired {
            await unexportServices(index)
            cuffs[index].databaseKnown = false
        }
        scheduleRemoval(index)
    }

    /// GattProfile1 auto-connect (docs/reference/BLUEZ-DBUS.md §4): a bonded, trusted cuff advertising a
    /// service some registered application's profile names is connected without being asked.
    func autoConnectIfWanted(_ index: Int) {
        let cuff = cuffs[index]
        guard cuff.advertising, cuff.exported, !cuff.connected, !cuff.connecting, cuff.paired, cuff.trusted,
              cuff.autoConnectArmed, powered else { return }
        let offered = Set(cuff.spec.advertisedUUIDs)
        guard applications.values.contains(where: { !$0.isDisjoint(with: offered) }) else { return }
        log("\(name(index)) auto-connecting (GattProfile1)")
        spawn { try? await self.establishLink(index) }
    }

    func setTrusted(_ trusted: Bool, device path: DBusObjectPath) throws(DBusError) {
        let index = try cuffIndex(device: path)
        cuffs[index].trusted = trusted
        if trusted { cuffs[index].removalToken += 1 }
        autoConnectIfWanted(index)
    }

    // MARK: - Pairing

    /// Pairs the way the cuff requires (docs/reference/BLUEZ-DBUS.md §5): connects first if needed, asks the
    /// caller's agent (else the default agent) before replying; a passkey cuff needs an agent
    /// that can type the key it displays.
    func pair(device path: DBusObjectPath, client: String) async throws(DBusError) {
        let index = try cuffIndex(device: path)
        guard !cuffs[index].paired else { throw BluezError.alreadyExists }
        guard cuffs[index].pairing == nil else { throw BluezError.inProgress }
        if !cuffs[index].connected { try await establishLink(index) }
        let agent = agents[client].map { (client, $0) } ?? defaultAgentOwner.flatMap { owner in agents[owner].map { (owner, $0) } }
        let requirement = cuffs[index].spec.pairing
        let attempt = Task { [self] in try await askAgent(agent, for: requirement, device: path) }
        cuffs[index].pairing = (attempt, agent.map { ($0.0, $0.1.path) })
        defer { cuffs[index].pairing = nil }
        do {
            try await attempt.value
        } catch {
            let reply = (error as? DBusError) ?? BluezError.authenticationFailed
            log("\(name(index)) pairing failed: \(reply)")
            throw reply
        }
        cuffs[index].paired = true
        cuffs[index].removalToken += 1
        log("\(name(index)) paired")
        await update(path, Bluez.device, ["Paired": .boolean(true), "Bonded": .boolean(true)])
    }

    /// The agent's part of pairing, mapped to the errors `Pair` replies with.
    nonisolated func askAgent(
        _ agent: (owner: String, registration: AgentRegistration)?, for requirement: PairingRequirement, device: DBusObjectPath
    ) async throws {
        guard let connection = await connection else { throw BluezError.notReady }
        do {
            switch requirement {
            case .none, .justWorks:
                // Pairing a Just Works cuff it has no key for, the initiating kernel asks nobody: no agent
                // call with a NoInputNoOutput or a KeyboardDisplay agent (measured on 5.66, docs/acceptance.md).
                return
            case .passkey(let key):
                guard let agent, ["KeyboardOnly", "KeyboardDisplay"].contains(agent.registration.capability) else {
                    throw BluezError.authenticationFailed
                }
                let reply = try await connection.call(agent.owner, agent.registration.path, Bluez.agent, "RequestPasskey", [.objectPath(device)], timeout: .seconds(60))
                guard reply == [.uint32(key)] else { throw BluezError.authenticationFailed }
            }
        } catch let error as DBusError where error.name.rawValue.hasPrefix("org.bluez.Error.Authentication") {
            throw error
        } catch let error as DBusError {
            if Task.isCancelled { throw BluezError.authenticationCanceled }
            switch error.name.rawValue {
            case "org.bluez.Error.Rejected": throw BluezError.authenticationRejected
            case "org.bluez.Error.Canceled": throw BluezError.authenticationCanceled
            default: throw BluezError.authenticationFailed
            }
        }
    }

    func cancelPairing(device path: DBusObjectPath) async throws(DBusError) {
        let index = try cuffIndex(device: path)
        guard let pairing = cuffs[index].pairing else { throw BluezError.doesNotExist("No pairing in progress") }
        pairing.attempt.cancel()
        if let agent = pairing.agent {
            try? connection?.send(.methodCall(destination: agent.owner, path: agent.path, interface: Bluez.agent, member: "Cancel"))
        }
    }
}
