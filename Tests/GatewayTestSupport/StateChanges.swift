import Synchronization

/// Waiting for a condition on some state, without polling: whoever changes the state calls ``changed()`` after
/// the change, and each waiter whose condition then holds goes on. A waiter's condition is checked and the waiter
/// registered in one step under this lock, and ``changed()`` takes the same lock, so no change falls between.
public final class StateChanges: Sendable {
    private typealias Waiter = (holds: @Sendable () -> Bool, continuation: CheckedContinuation<Void, Never>)

    private struct State {
        var nextID = 0
        var waiters: [Int: Waiter] = [:]
        var canceled: Set<Int> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Returns once `holds` is true (checked now and after every change), or the task is canceled.
    public func wait(until holds: @escaping @Sendable () -> Bool) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state -> Bool in
                    if state.canceled.remove(id) != nil || holds() { return true }
                    state.waiters[id] = (holds, continuation)
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    state.canceled.insert(id)
                    return nil
                }
                return waiter
            }
            waiter?.continuation.resume()
        }
    }

    /// The state changed: waiters whose condition holds now go on.
    public func changed() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let ready = state.waiters.filter { $0.value.holds() }
            for id in ready.keys { state.waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }
}
