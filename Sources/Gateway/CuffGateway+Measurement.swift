import BlueZ
import GATTHealth

/// Measurement sessions ("Standard cuffs have none: there, "start" arms a session that waits for
/// the cuff, and "stop" ends it"; docs/reference/GATT-HEALTH.md §12).
extension CuffGateway {
    /// Arms a session for the cuff at `address` (any known cuff when nil): updates come until a new
    /// reading is committed, the cuff reports a failure, `timeout` passes, or ``stopMeasurement(_:)``.
    /// A cuff with a vendor control point is connected and told to start; a standard cuff measures when
    /// its user presses START and it connects.
    public func startMeasurement(_ address: BluetoothAddress?, timeout: Duration) async throws(GatewayError) -> AsyncStream<MeasurementUpdate> {
        guard state.adapter != nil else { throw .bluetoothUnavailable("no adapter, or bluetoothd is not running") }
        if let address {
            guard state.cuffs[address] != nil else { throw .unknownCuff(address) }
        } else if state.cuffs.isEmpty {
            throw .noCuffs
        }
        let (stream, continuation) = AsyncStream<MeasurementUpdate>.makeStream()
        let watcher = MeasurementWatcher(address: address, armedAt: now(), continuation: continuation)
        let token = state.addWatcher(watcher)
        emit(.measurementArmed(address, timeout: timeout))
        continuation.onTermination = { [weak self] _ in Task { await self?.endWatcher(token) } }
        for cuff in state.cuffs.values where watcher.watches(cuff.device.id.address) {
            continuation.yield(.state(cuff.device.id.address, await cuff.session.state))
        }
        let clock = clock
        Task { [weak self] in
            try? await clock.sleep(for: timeout)
            await self?.expire(token)
        }
        if let address, let control = state.cuffs[address]?.vendorControl {
            try await sendVendorCommand(QardioArmControlPoint.Command.start.encoded(), to: address, control: control)
        }
        return stream
    }

    /// Ends armed sessions for `address` (all when nil); a vendor cuff is told to cancel (deflate).
    public func stopMeasurement(_ address: BluetoothAddress?) async throws(GatewayError) {
        if let address, state.cuffs[address] == nil { throw .unknownCuff(address) }
        for (token, watcher) in state.watchers where address == nil || watcher.address == address || watcher.address == nil {
            state.watchers[token] = nil
            watcher.end(.stopped)
        }
        for cuff in state.cuffs.values where address == nil || cuff.device.id.address == address {
            guard let control = cuff.vendorControl, cuff.device.connected else { continue }
            try? await sendVendorCommand(QardioArmControlPoint.Command.cancel.encoded(), to: cuff.device.id.address, control: control)
        }
    }

    private func sendVendorCommand(_ command: [UInt8], to address: BluetoothAddress, control: String) async throws(GatewayError) {
        guard let id = state.cuffs[address]?.device.id else { throw .unknownCuff(address) }
        do {
            try await bluetooth.connect(id)
            try await bluetooth.writeValue(command, to: control, of: id)
        } catch {
            throw .bluez(error)
        }
    }

    /// Time is up: the watcher ends, and a vendor cuff still inflating is told to cancel ("send F1 02 on
    /// cancel, timeout or shutdown", docs/reference/GATT-HEALTH.md §12).
    private func expire(_ token: Int) async {
        guard let watcher = state.watchers.removeValue(forKey: token) else { return }
        watcher.end(.timedOut)
        if let address = watcher.address, let control = state.cuffs[address]?.vendorControl, state.cuffs[address]?.device.connected == true {
            try? await sendVendorCommand(QardioArmControlPoint.Command.cancel.encoded(), to: address, control: control)
        }
    }

    private func endWatcher(_ token: Int) {
        state.watchers[token] = nil
    }

    /// A QardioArm phase notification (docs/reference/GATT-HEALTH.md §12): logged; an aborted or failed measurement ends
    /// the sessions armed for the cuff, since no reading will follow.
    func vendorPhase(_ address: BluetoothAddress, _ bytes: [UInt8]) {
        guard let phase = try? QardioArmControlPoint.Phase(decoding: bytes) else {
            emit(.problem(address, "an unknown QardioArm control-point notification: \(bytes)"))
            return
        }
        emit(.measurementPhase(address, "\(phase)"))
        guard phase == .aborted || phase == .error else { return }
        for (token, watcher) in state.watchers where watcher.watches(address) {
            state.watchers[token] = nil
            watcher.end(.stopped)
        }
    }
}
