import FoundationEssentials
import GATTHealth

/// What an Omron cuff notifies during a download, in arrival order, for the request that waits on it
/// (docs/omron.md §2–§3): answers on the unlock characteristic, and packets joined from the receive channels.
actor OmronInbox {
    enum Message: Sendable, Equatable {
        case unlock([UInt8])
        case packet(Result<OmronPacket, OmronError>)
    }

    private var queued: [Message] = []
    private var waiter: (id: Int, continuation: CheckedContinuation<Message?, Never>)?
    private var nextWaiter = 0
    private var assembler = OmronPacketAssembler()

    /// Joins pieces as `stack`'s receive channels carry them (docs/omron.md §3), from now on.
    func use(_ stack: OmronStack) {
        assembler = OmronPacketAssembler(stack)
    }

    /// A notification of the unlock characteristic.
    func unlockAnswer(_ bytes: [UInt8]) {
        deliver(.unlock(bytes))
    }

    /// A piece from receive channel `channel`; a message once the packet is whole.
    func piece(_ bytes: [UInt8], channel: Int) {
        if let whole = assembler.append(bytes, channel: channel) { deliver(.packet(whole)) }
    }

    /// Forgets what arrived for an earlier request (a retry starts clean).
    func clear() {
        queued.removeAll()
        assembler.reset()
    }

    /// The next message, or nil when none came within `timeout` on `clock`.
    func next(within timeout: Duration, on clock: any Clock<Duration>) async -> Message? {
        if !queued.isEmpty { return queued.removeFirst() }
        nextWaiter += 1
        let id = nextWaiter
        let timer = Task { [weak self] in
            try? await clock.sleep(for: timeout)
            await self?.expire(id)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            waiter = (id, continuation)
        }
    }

    private func deliver(_ message: Message) {
        if let waiting = waiter {
            waiter = nil
            waiting.continuation.resume(returning: message)
        } else {
            queued.append(message)
        }
    }

    private func expire(_ id: Int) {
        guard let waiting = waiter, waiting.id == id else { return }
        waiter = nil
        waiting.continuation.resume(returning: nil)
    }
}
