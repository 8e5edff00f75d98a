import DBus

/// Discovery sessions (`Adapter1`, docs/reference/BLUEZ-DBUS.md §2): one per client per adapter, filtered, resumed after
/// a bluetoothd restart.
extension BluezClient {
    /// Sets our filter and starts our discovery session on `adapter`; `InProgress` (already ours) is fine.
    public func startDiscovery(on adapter: BluetoothAddress, filter: DiscoveryFilter) async throws(BluezError) {
        registrations.discovery[adapter] = filter
        guard let found = mirror.adapter(adapter) else { throw Self.noAdapter(adapter) }
        try await startDiscoverySession(on: found, filter: filter)
    }

    func startDiscoverySession(on adapter: Adapter, filter: DiscoveryFilter) async throws(BluezError) {
        do {
            _ = try await connection.call(BluezName.service, adapter.path, BluezName.adapter, "SetDiscoveryFilter", [filter.dictionary])
            _ = try await connection.call(BluezName.service, adapter.path, BluezName.adapter, "StartDiscovery")
        } catch {
            let failure = BluezError(error)
            guard failure.kind != .inProgress else { return }
            throw failure
        }
    }

    /// Ends our discovery session. bluetoothd then removes temporary devices (never paired or trusted)
    /// after `TemporaryTimeout` (docs/reference/BLUEZ-DBUS.md §2).
    public func stopDiscovery(on adapter: BluetoothAddress) async {
        registrations.discovery[adapter] = nil
        guard let found = mirror.adapter(adapter) else { return }
        _ = try? await connection.call(BluezName.service, found.path, BluezName.adapter, "StopDiscovery")
    }

    static func noAdapter(_ address: BluetoothAddress) -> BluezError {
        BluezError(DBusError("org.bluez.Error.NoSuchAdapter", "no adapter \(address)"))
    }
}
