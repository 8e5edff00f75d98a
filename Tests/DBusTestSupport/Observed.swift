import Dispatch
import Foundation

/// A value that tasks wait on: every change wakes the waiters, which look at it again. A wait ends when its
/// condition holds; its deadline only turns a hang into a failure.
public final class Observed<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Value
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(_ value: Value) { current = value }

    /// The value now.
    public var value: Value { lock.withLock { current } }

    /// Changes the value and wakes every waiter.
    @discardableResult
    public func update<Result>(_ change: (inout Value) throws -> Result) rethrows -> Result {
        let (result, woken) = try lock.withLock {
            let result = try change(&current)
            defer { waiters.removeAll() }
            return (result, waiters)
        }
        for waiter in woken { waiter.resume() }
        return result
    }

    /// Waits until `found` returns a result for the value, and returns it. `found` runs under the lock and may
    /// change the value (a cursor moving on) without waking anyone. Throws `TestFailure` naming `what` when
    /// `timeout` passes first.
    public func wait<Result>(
        for what: @autoclosure () -> String, within timeout: Duration = testDeadline, _ found: (inout Value) -> Result?
    ) async throws -> Result {
        let deadline = ContinuousClock.now + timeout
        // The alarm only wakes the waiters at the deadline, so that this one sees the time is up.
        let alarm = DispatchWorkItem { [weak self] in self?.update { _ in } }
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(timeout / .nanoseconds(1))), execute: alarm)
        defer { alarm.cancel() }
        while true {
            var result: Result?
            var expired = false
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = lock.withLock {
                    result = found(&current)
                    guard result == nil else { return false }
                    expired = ContinuousClock.now >= deadline
                    if !expired { waiters.append(continuation) }
                    return !expired
                }
                if !waiting { continuation.resume() }
            }
            if let result { return result }
            if expired { throw TestFailure("\(what()): not within \(timeout)") }
        }
    }
}
