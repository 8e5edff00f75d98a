import BlueZ
import CuffRecording
import CuffSimulation
import Synchronization

/// A recorded cuff hosted in-process (docs/cuff-sim.md, "Recorded cuffs"): cuff-sim's ``RecordedConversation`` — the
/// same answers cuff-sim's bluetoothd plays over D-Bus — with its times left out: what follows a write the Gateway
/// makes goes out at once, in the write's answer, up to the next write step; what the cuff does by itself (values not
/// answering a write, dropping the link, coming back) the test makes it do, a step at a time
/// (``EmbeddedCentral/stepRecording(_:)``).
public final class EmbeddedRecordedCuff: Sendable {
    private struct State {
        var conversation: RecordedConversation
        /// The link reached its recorded disconnect inside a write's answer: the next step drops it.
        var disconnectDue = false
        /// A recorded link is left after the one that ended: the cuff comes back.
        var comesBack = true
    }

    private let state: Mutex<State>

    public init(_ recorded: RecordedCuff) {
        state = Mutex(State(conversation: RecordedConversation(recorded)))
    }

    func linkUp() {
        state.withLock {
            $0.conversation.linkUp()
            $0.disconnectDue = false
        }
    }

    func linkDown() {
        state.withLock { $0.comesBack = $0.conversation.linkDown() != nil }
    }

    /// What was held for a session on `uuid`, now that one started.
    func subscribed(_ uuid: String) -> [EmbeddedPeripheral.Notification] {
        state.withLock { $0.conversation.subscribed(uuid) }.map { EmbeddedPeripheral.Notification($0.uuid, $0.bytes) }
    }

    func read(_ uuid: String) throws(BluezError) -> [UInt8] {
        do {
            return try state.withLock { state throws(RecordedConversation.Refusal) in try state.conversation.read(uuid) }
        } catch {
            throw EmbeddedCentral.refusal(error.name + ": " + error.message)
        }
    }

    /// The handlers of its writable characteristics: each write taken for the recorded write it stands for, answered
    /// with what the recording sent after it.
    var writeHandlers: [String: EmbeddedPeripheral.WriteHandler] {
        let writable = state.withLock { $0.conversation.recording.characteristics }
            .filter { $0.flags.contains("write") || $0.flags.contains("write-without-response") }
        return Dictionary(writable.map { characteristic in
            let uuid = characteristic.uuid
            let handler: EmbeddedPeripheral.WriteHandler = { [self] bytes, _, _ throws(BluezError) in try answer(bytes, to: uuid) }
            return (uuid, handler)
        }) { first, _ in first }
    }

    private func answer(_ bytes: [UInt8], to uuid: String) throws(BluezError) -> [EmbeddedPeripheral.Notification] {
        do {
            return try state.withLock { state throws(RecordedConversation.Refusal) in
                try state.conversation.write(bytes, to: uuid, at: 0)
                var sent: [EmbeddedPeripheral.Notification] = []
                while true {
                    switch state.conversation.next(at: .infinity) {
                    case .send(let value): sent.append(EmbeddedPeripheral.Notification(value.uuid, value.bytes))
                    case .disconnect:
                        state.disconnectDue = true
                        return sent
                    default: return sent
                    }
                }
            }
        } catch {
            throw EmbeddedCentral.refusal(error.name + ": " + error.message)
        }
    }

    /// What the cuff does next by itself.
    enum Step {
        case send(EmbeddedPeripheral.Notification)
        case disconnect
        case comeBack
        case nothing
    }

    func next(connected: Bool) -> Step {
        state.withLock { state in
            guard connected else { return state.comesBack ? .comeBack : .nothing }
            if state.disconnectDue {
                state.disconnectDue = false
                return .disconnect
            }
            switch state.conversation.next(at: .infinity) {
            case .send(let value): return .send(EmbeddedPeripheral.Notification(value.uuid, value.bytes))
            case .disconnect: return .disconnect
            default: return .nothing
            }
        }
    }
}

extension EmbeddedCentral {
    /// Makes the recorded cuff at `address` do the next thing it does by itself: send a value that answers no write,
    /// drop the link, or come back for its next recorded link (connected by bluetoothd when paired and trusted,
    /// GattProfile1). Returns false when it does nothing until the Gateway writes, or ever.
    public func stepRecording(_ address: BluetoothAddress) -> Bool {
        guard let node = nodes[address], let recording = node.peripheral.recording else { return false }
        switch recording.next(connected: node.connected) {
        case .send(let notification):
            send(notification, from: address)
        case .disconnect:
            linkDown(address)
        case .comeBack:
            guard node.paired, node.trusted, node.exported else { return false }
            linkUp(address)
        case .nothing:
            return false
        }
        return true
    }
}
