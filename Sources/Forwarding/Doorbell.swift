import Synchronization

/// Where the forwarding loop sleeps between batches: rung by cuffd's signals, or by a timer while a retry is
/// due. Without a ring and without a timer nothing wakes it — an idle forwarder polls nothing.
final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Wakes the waiter, or the next one to wait.
    func ring() {
        let waiting: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard let waiting = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiting
        }
        waiting?.resume()
    }

    /// Returns at the next ring — at once if one came since the last wait —, or after `timeout`.
    func wait(timeout: Duration? = nil) async {
        let timer = timeout.map { timeout in
            Task { [self] in
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { ring() }
            }
        }
        defer { timer?.cancel() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let already = state.withLock { state in
                if state.rung {
                    state.rung = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if already { continuation.resume() }
        }
    }
}
