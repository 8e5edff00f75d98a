import DBus

/// Waiting for the mirror to reach a state, subscribed before looking (bluer's `wait_for_services_resolved`
/// order; docs/reference/BLUEZ-DBUS.md §6), caught up with what has arrived, then bounded in time.
extension BluezClient {
    /// Waits until `decide` says true (done) or false (failed) of the device's state; nil means keep
    /// waiting. A device that is not in the mirror is passed as nil. Throws `NoReply` on timeout and
    /// `NotConnected` when `decide` answers false. `subscribed`, when given, is a stream of ``events()`` taken
    /// earlier — before a call — so that states the device passed through since then are decided on too.
    ///
    /// The mirror is first caught up with every signal received so far (``catchUp()``): after a call's reply, the
    /// state bluetoothd signalled before replying is decided on whatever the load, and `timeout` only bounds what
    /// bluetoothd signals later (a property whose signal it sends after its reply).
    func waitForDevice(
        _ id: DeviceID, timeout: Duration, subscribed: AsyncStream<BluezEvent>? = nil, _ decide: @escaping @Sendable (Device?) -> Bool?
    ) async throws(BluezError) {
        let events = subscribed ?? events()
        await catchUp()
        switch decide(mirror.device(id)) {
        case true?: return
        case false?: throw Self.linkLost(id)
        case nil: break
        }
        let verdict = await withTaskGroup(of: Bool?.self) { group in
            group.addTask {
                for await event in events {
                    switch event {
                    case .deviceChanged(let device, _) where device.id == id:
                        if let verdict = decide(device) { return verdict }
                    case .deviceRemoved(id), .availabilityChanged(false):
                        if let verdict = decide(nil) { return verdict }
                    default:
                        continue
                    }
                }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        switch verdict {
        case true?: return
        case false?: throw Self.linkLost(id)
        case nil: throw BluezError(DBusError(.noReply, "\(id.address): no answer within \(timeout)"))
        }
    }

    static func linkLost(_ id: DeviceID) -> BluezError {
        BluezError(DBusError("org.bluez.Error.NotConnected", "\(id.address) disconnected or vanished"))
    }
}
