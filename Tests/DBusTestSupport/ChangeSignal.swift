import Foundation

/// Changes counted as they happen — datagrams arriving, a log growing, a process exiting —, for tests that wait for
/// a condition over them: the condition is checked now and again after each change, and a change between two checks
/// is not missed. The deadline only turns a hang into a failure.
public final class ChangeSignal: @unchecked Sendable {
    private let condition = NSCondition()
    private var changes = 0

    public init() {}

    /// Something changed: the waiters check their conditions again.
    public func signal() {
        condition.withLock {
            changes += 1
            condition.broadcast()
        }
    }

    /// Returns once `satisfied` holds, checked off the cooperative pool; throws after `timeout` without it, saying
    /// `what` was waited for and, from `detail`, what was seen instead.
    public func wait(
        _ what: String, within timeout: Duration = .seconds(60), detail: @autoclosure () -> String = "", until satisfied: @escaping @Sendable () -> Bool
    ) async throws {
        let deadline = Date(timeIntervalSinceNow: Double(timeout.components.seconds))
        let held = try await offCooperativePool { [self] in
            var seen = condition.withLock { changes }
            while !satisfied() {
                let changed = condition.withLock {
                    while changes == seen, condition.wait(until: deadline) {}
                    defer { seen = changes }
                    return changes != seen
                }
                guard changed else { return satisfied() }
            }
            return true
        }
        guard held else { throw TestFailure("\(what): not within \(timeout)\n\(detail())") }
    }
}
