import BlueZ
import Synchronization

/// Answers bluetoothd's agent questions for the Gateway (docs/reference/BLUEZ-DBUS.md §5): it accepts pairing only for a
/// device cuffd was asked to pair (or a cuff it already collects from), and relays a passkey from the
/// person — given up front with `cuffctl pair --passkey`, or asked for through the control API while
/// bluetoothd waits.
final class PairingBroker: PairingDelegate {
    private struct State {
        /// Devices cuffd is pairing now, with the passkey given up front, if any.
        var expected: [BluetoothAddress: UInt32?] = [:]
        var waiting: [BluetoothAddress: CheckedContinuation<UInt32, any Error>] = [:]
    }

    private let state = Mutex(State())
    private let timeout: Duration
    /// What `timeout` is measured on: the Gateway's clock.
    private let clock: any Clock<Duration>
    private let isKnownCuff: @Sendable (DeviceID) async -> Bool
    private let askForPasskey: @Sendable (BluetoothAddress) async -> Void

    init(
        timeout: Duration, clock: any Clock<Duration>, isKnownCuff: @escaping @Sendable (DeviceID) async -> Bool,
        askForPasskey: @escaping @Sendable (BluetoothAddress) async -> Void
    ) {
        self.timeout = timeout
        self.clock = clock
        self.isKnownCuff = isKnownCuff
        self.askForPasskey = askForPasskey
    }

    /// cuffd starts pairing `address`; `passkey` is the key the cuff will display, when known.
    func expect(_ address: BluetoothAddress, passkey: UInt32?) {
        state.withLock { $0.expected[address] = .some(passkey) }
    }

    /// Pairing `address` ended; a question still open is canceled.
    func finished(_ address: BluetoothAddress) {
        let waiting = state.withLock { state -> CheckedContinuation<UInt32, any Error>? in
            state.expected[address] = nil
            return state.waiting.removeValue(forKey: address)
        }
        waiting?.resume(throwing: AgentRefusal.canceled)
    }

    /// The person typed the passkey; false when no pairing of `address` is waiting for one.
    func provide(_ passkey: UInt32, for address: BluetoothAddress) -> Bool {
        let waiting = state.withLock { $0.waiting.removeValue(forKey: address) }
        waiting?.resume(returning: passkey)
        return waiting != nil
    }

    func isPairing(_ address: BluetoothAddress) -> Bool {
        state.withLock { $0.expected[address] != nil }
    }

    // MARK: - PairingDelegate

    func passkey(for device: DeviceID) async throws -> UInt32 {
        let expected = state.withLock { $0.expected[device.address] }
        guard let expected else { throw AgentRefusal.rejected }  // nobody asked cuffd to pair it
        if let given = expected { return given }
        let (timeout, clock) = (timeout, clock)
        return try await withThrowingTaskGroup(of: UInt32.self) { group in
            group.addTask {
                try await withCheckedThrowingContinuation { continuation in
                    self.state.withLock { $0.waiting[device.address] = continuation }
                    Task { await self.askForPasskey(device.address) }
                }
            }
            group.addTask {
                try await clock.sleep(for: timeout)
                throw AgentRefusal.canceled
            }
            defer {
                group.cancelAll()
                finishWaiting(device.address)
            }
            return try await group.next()!
        }
    }

    private func finishWaiting(_ address: BluetoothAddress) {
        let waiting = state.withLock { $0.waiting.removeValue(forKey: address) }
        waiting?.resume(throwing: AgentRefusal.canceled)
    }

    /// Numeric comparison needs a person to compare: only for a pairing cuffd itself started.
    func confirm(_ device: DeviceID, passkey: UInt32) async throws {
        guard isPairing(device.address) else { throw AgentRefusal.rejected }
    }

    /// Just Works asks an agent with a user interface; accepted for cuffd's own pairings and known cuffs
    /// (a cuff re-pairing after BlueZ's automatic security elevation).
    func authorizePairing(_ device: DeviceID) async throws {
        if isPairing(device.address) { return }
        guard await isKnownCuff(device) else { throw AgentRefusal.rejected }
    }

    func authorizeService(_ device: DeviceID, uuid: String) async throws {
        guard await isKnownCuff(device) else { throw AgentRefusal.rejected }
    }

    func pairingCanceled() async {
        let open = state.withLock { state -> [CheckedContinuation<UInt32, any Error>] in
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in open { continuation.resume(throwing: AgentRefusal.canceled) }
    }
}
