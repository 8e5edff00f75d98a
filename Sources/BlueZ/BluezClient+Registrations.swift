import DBus

/// The agent, the auto-connect application and the notify sessions, kept registered across bluetoothd
/// restarts (docs/reference/BLUEZ-DBUS.md §4, §5, §7, §10).
extension BluezClient {
    var agentPath: DBusObjectPath { try! configuration.objectRoot.appending("agent") }
    var applicationPath: DBusObjectPath { try! configuration.objectRoot.appending("application") }

    /// Exports `Agent1` and the application (an ObjectManager with one `GattProfile1`) on our connection.
    func exportRegistrationObjects(delegate: any PairingDelegate) async {
        registrations.agentCapability = configuration.agentCapability
        await connection.export([PairingAgent.interface(delegate: delegate, client: self)], at: agentPath)
        await connection.addObjectManager(at: applicationPath)
        await connection.export([GattProfileApplication.interface(uuids: configuration.autoConnectUUIDs)], at: try! applicationPath.appending("profile0"))
    }

    /// Redoes every registration on a bluetoothd that just appeared: agent, application on each adapter,
    /// notify sessions, discovery (docs/reference/BLUEZ-DBUS.md §10, in that order).
    func registerEverything() async {
        await registerAgent()
        for adapter in mirror.adapters { await registerApplication(on: adapter) }
        for device in Set(registrations.notifyIntents.keys).union(registrations.captureIntents.keys) { enableNotifications(device) }
        for (address, filter) in registrations.discovery {
            if let adapter = mirror.adapter(address) { try? await startDiscoverySession(on: adapter, filter: filter) }
        }
    }

    private func registerAgent() async {
        guard isAvailable, !registrations.agentRegistered else { return }
        do {
            _ = try await connection.call(BluezName.service, BluezName.root, BluezName.agentManager, "RegisterAgent", [
                .objectPath(agentPath), .string(registrations.agentCapability.rawValue),
            ])
            registrations.agentRegistered = true
            if configuration.requestsDefaultAgent {
                _ = try await connection.call(BluezName.service, BluezName.root, BluezName.agentManager, "RequestDefaultAgent", [.objectPath(agentPath)])
            }
        } catch {
            // bluetoothd left meanwhile; the next owner gets a fresh registration.
        }
    }

    /// Registers the agent again with another capability, e.g. `KeyboardDisplay` while pairing a cuff
    /// that displays a passkey (one agent per client: `src/agent.c`).
    public func setAgentCapability(_ capability: AgentCapability) async {
        guard capability != registrations.agentCapability else { return }
        registrations.agentCapability = capability
        if registrations.agentRegistered {
            _ = try? await connection.call(BluezName.service, BluezName.root, BluezName.agentManager, "UnregisterAgent", [.objectPath(agentPath)])
            registrations.agentRegistered = false
        }
        await registerAgent()
    }

    /// `GattManager1.RegisterApplication` on `adapter`. bluetoothd reads the application's objects before it
    /// replies (§15.2); our connection answers that from its own queue, never through this actor.
    func registerApplication(on adapter: Adapter) async {
        guard !registrations.applicationAdapters.contains(adapter.address) else { return }
        registrations.applicationAdapters.insert(adapter.address)
        do {
            _ = try await connection.call(BluezName.service, adapter.path, BluezName.gattManager, "RegisterApplication", [
                .objectPath(applicationPath), [String: DBusVariant]().dbusValue,
            ])
        } catch {
            registrations.applicationAdapters.remove(adapter.address)
        }
    }

    // MARK: - Notify sessions

    /// Keeps notifications or indications enabled on the characteristics `uuids` of `device`, now and
    /// whenever they are exported again (after a reconnection or a bluetoothd restart). The match rule for
    /// their values was installed at start-up, before any `StartNotify` (docs/reference/BLUEZ-DBUS.md §7).
    public func keepNotifying(_ device: DeviceID, uuids: Set<String>) {
        registrations.notifyIntents[device, default: []].formUnion(uuids.map { $0.lowercased() })
        enableNotifications(device)
    }

    /// Ends our notify sessions on `device` (`StopNotify`) and forgets the wish; a capture's stay while it runs.
    public func stopNotifying(_ device: DeviceID) async {
        guard let uuids = registrations.notifyIntents.removeValue(forKey: device) else { return }
        await stopSessions(device, uuids.subtracting(registrations.captureIntents[device] ?? []))
    }

    /// Keeps sessions on `uuids` of `device` for a capture (docs/capture.md), as ``keepNotifying(_:uuids:)`` does for
    /// the Gateway, without counting them in ``isNotifying(_:)``.
    public func keepCaptureNotifying(_ device: DeviceID, uuids: Set<String>) {
        registrations.captureIntents[device, default: []].formUnion(uuids.map { $0.lowercased() })
        enableNotifications(device)
    }

    /// Ends the capture's sessions on `device` that the Gateway does not want too, and forgets the capture's wish.
    public func stopCaptureNotifying(_ device: DeviceID) async {
        guard let uuids = registrations.captureIntents.removeValue(forKey: device) else { return }
        await stopSessions(device, uuids.subtracting(registrations.notifyIntents[device] ?? []))
    }

    /// `StopNotify` on our sessions on `uuids` of `device`.
    private func stopSessions(_ device: DeviceID, _ uuids: Set<String>) async {
        for characteristic in mirror.characteristics(of: device) where uuids.contains(characteristic.uuid) {
            guard registrations.notifyingPaths.remove(characteristic.path) != nil else { continue }
            _ = try? await connection.call(BluezName.service, characteristic.path, BluezName.gattCharacteristic, "StopNotify")
        }
    }

    /// Calls `StartNotify` on every wished-for characteristic of `device` that is exported and has no
    /// session of ours yet. Each call runs in a task, so values it triggers are processed meanwhile.
    func enableNotifications(_ device: DeviceID) {
        guard isAvailable, let uuids = registrations.wished(device) else { return }
        for characteristic in mirror.characteristics(of: device)
        where uuids.contains(characteristic.uuid) && characteristic.canNotify
            && !registrations.notifyingPaths.contains(characteristic.path) && !registrations.startingPaths.contains(characteristic.path) {
            registrations.startingPaths.insert(characteristic.path)
            Task {
                let started: Bool
                do {
                    _ = try await connection.call(BluezName.service, characteristic.path, BluezName.gattCharacteristic, "StartNotify")
                    started = true
                } catch {
                    // Disconnecting, or security refused: the next ServicesResolved tries again.
                    started = false
                }
                notifyStarted(characteristic, started)
            }
        }
    }

    private func notifyStarted(_ characteristic: GattCharacteristic, _ started: Bool) {
        guard registrations.startingPaths.remove(characteristic.path) != nil, started else { return }
        registrations.notifyingPaths.insert(characteristic.path)
        emit(.notifying(characteristic.device, uuid: characteristic.uuid))
    }

    /// Whether our `StartNotify` sessions cover every wished-for characteristic `device` exports.
    public func isNotifying(_ device: DeviceID) -> Bool {
        guard let uuids = registrations.notifyIntents[device] else { return false }
        let wanted = mirror.characteristics(of: device).filter { uuids.contains($0.uuid) && $0.canNotify }
        return !wanted.isEmpty && wanted.allSatisfy { registrations.notifyingPaths.contains($0.path) }
    }
}
