import DBus

/// `Device1` calls (`doc/device-api.txt`), with the workarounds docs/reference/BLUEZ-DBUS.md §3, §5 and §6 call for.
extension BluezClient {
    /// `Device1.Connect`, serialized per device (a second caller joins the attempt under way instead of
    /// getting `InProgress`) and retried on transient `le-connection-*` failures after the `Connected`
    /// flap settles (bleak's workaround, docs/reference/BLUEZ-DBUS.md §3), three attempts in all. Returns once the
    /// link is up.
    public func connect(_ id: DeviceID) async throws(BluezError) {
        try await connect(id, attempts: 3)
    }

    /// ``connect(_:)`` with `attempts` attempts.
    public func connect(_ id: DeviceID, attempts: Int) async throws(BluezError) {
        if connectsInFlight[id] == nil {
            connectsInFlight[id] = Task {
                let result = await attemptConnect(id, attempts: attempts)
                finishConnect(id, result)
            }
        }
        await connectsInFlight[id]?.value
        if let result = connectResults[id] { try result.get() }
    }

    private func finishConnect(_ id: DeviceID, _ result: Result<Void, BluezError>) {
        connectResults[id] = result
        connectsInFlight[id] = nil
        // Callers that joined read the result once they resume; the next attempt replaces it.
    }

    private func attemptConnect(_ id: DeviceID, attempts: Int) async -> Result<Void, BluezError> {
        var last = BluezError(DBusError("org.bluez.Error.Failed", "not attempted"))
        for attempt in 1...max(1, attempts) {
            guard let device = mirror.device(id) else { return .failure(Self.unknown(id)) }
            if device.connected { return .success(()) }
            // Connect's reply can overtake, on our signal stream, the PropertiesChanged that set Connected (as Pair's
            // can): the link is up once the mirror shows it, or an event since this subscription did.
            let events = events()
            do {
                _ = try await connection.call(BluezName.service, device.path, BluezName.device, "Connect", timeout: .seconds(30))
            } catch {
                last = BluezError(error)
                if last.kind == .alreadyConnected { return .success(()) }
                guard last.isRetryable, attempt < attempts else { return .failure(last) }
                // "BlueZ actually connected so we get Connected property changes that we need to wait
                // for" (bleak): let a Connected true → false flap pass before trying again.
                _ = try? await waitForDevice(id, timeout: .milliseconds(500)) { $0?.connected == false ? true : nil }
                continue
            }
            do {
                try await waitForDevice(id, timeout: .seconds(5), subscribed: events) { $0.map { $0.connected ? true : nil } ?? false }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        return .failure(last)
    }

    /// `Device1.Disconnect`. On a device that is not trusted this also stops auto-connect "until Connect
    /// method is called again" (docs/reference/BLUEZ-DBUS.md §3), so cuffd trusts cuffs before it ever disconnects them.
    public func disconnect(_ id: DeviceID) async throws(BluezError) {
        let path = try devicePath(id)
        do {
            _ = try await connection.call(BluezName.service, path, BluezName.device, "Disconnect")
        } catch {
            let failure = BluezError(error)
            guard failure.kind != .notConnected else { return }
            throw failure
        }
    }

    /// Waits until the device's services are resolved and returns its characteristics; fails when the link
    /// drops or the device vanishes first ("in some cases, we can get InterfacesRemoved without the
    /// Connected property changing", bleak; docs/reference/BLUEZ-DBUS.md §6). Subscribes before it looks.
    public func waitForServicesResolved(_ id: DeviceID, timeout: Duration) async throws(BluezError) -> [GattCharacteristic] {
        try await waitForDevice(id, timeout: timeout) { device in
            guard let device, device.connected else { return false }
            return device.servicesResolved ? true : nil
        }
        return mirror.characteristics(of: id)
    }

    /// `Device1.Pair`: connects if needed, pairs, resolves services. bluetoothd asks our agent before it
    /// replies, so the agent's handler must not wait for this call (docs/reference/BLUEZ-DBUS.md §15.2). The timeout covers
    /// a person reading a passkey off a cuff. Returns once the mirror shows the device paired: the reply
    /// can overtake the `PropertiesChanged` bluetoothd sent before it on our signal stream.
    public func pair(_ id: DeviceID, timeout: Duration = .seconds(90)) async throws(BluezError) {
        let path = try devicePath(id)
        do {
            _ = try await connection.call(BluezName.service, path, BluezName.device, "Pair", timeout: timeout)
        } catch {
            let failure = BluezError(error)
            guard failure.kind == .alreadyExists else { throw failure }
        }
        try await waitForDevice(id, timeout: .seconds(5)) { $0.map { $0.paired ? true : nil } ?? false }
    }

    /// `Device1.CancelPairing`.
    public func cancelPairing(_ id: DeviceID) async {
        guard let path = try? devicePath(id) else { return }
        _ = try? await connection.call(BluezName.service, path, BluezName.device, "CancelPairing")
    }

    /// Sets `Trusted`: a trusted device keeps auto-connect armed across its own disconnects (§3, §4).
    /// Returns once the mirror shows it.
    public func setTrusted(_ id: DeviceID, _ trusted: Bool) async throws(BluezError) {
        let path = try devicePath(id)
        do {
            _ = try await connection.call(BluezName.service, path, StandardInterface.properties, "Set", [
                .string(BluezName.device), .string("Trusted"), .variant(.boolean(trusted)),
            ])
        } catch {
            throw BluezError(error)
        }
        try await waitForDevice(id, timeout: .seconds(5)) { $0.map { $0.trusted == trusted ? true : nil } ?? false }
    }

    /// `Adapter1.RemoveDevice`: drops the bond and the object (the daemon-side remedy for a stale bond or
    /// attribute cache, docs/reference/BLUEZ-DBUS.md §11). Returns once the mirror no longer holds the device.
    public func remove(_ id: DeviceID) async throws(BluezError) {
        let path = try devicePath(id)
        guard let adapter = mirror.adapter(id.adapter) else { throw Self.unknown(id) }
        registrations.notifyIntents[id] = nil
        do {
            _ = try await connection.call(BluezName.service, adapter.path, BluezName.adapter, "RemoveDevice", [.objectPath(path)])
        } catch {
            throw BluezError(error)
        }
        try await waitForDevice(id, timeout: .seconds(5)) { $0 == nil ? true : nil }
    }

    func devicePath(_ id: DeviceID) throws(BluezError) -> DBusObjectPath {
        guard let device = mirror.device(id) else { throw Self.unknown(id) }
        return device.path
    }

    static func unknown(_ id: DeviceID) -> BluezError {
        BluezError(DBusError("org.bluez.Error.DoesNotExist", "no device \(id.address) on adapter \(id.adapter)"))
    }
}
