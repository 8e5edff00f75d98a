/// Messages a cuff notified, in arrival order, for the request that waits on the next one: Omron's packets and unlock
/// answers (``OmronInbox``), Microlife's answer frames (docs/reference/GATT-HEALTH.md §13.12).
actor Mailbox<Message: Sendable> {
    private var queued: [Message] = []
    private var waiter: (id: Int, continuation: CheckedContinuation<Message?, Never>)?
    private var nextWaiter = 0

    /// Hands `message` to the waiting request, or keeps it for the next one.
    func deliver(_ message: Message) {
        if let waiting = waiter {
            waiter = nil
            waiting.continuation.resume(returning: message)
        } else {
            queued.append(message)
        }
    }

    /// Forgets what arrived for an earlier request.
    func clear() {
        queued.removeAll()
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

    private func expire(_ id: Int) {
        guard let waiting = waiter, waiting.id == id else { return }
        waiter = nil
        waiting.continuation.resume(returning: nil)
    }
}
