import Synchronization

/// A clock whose time moves only when the test moves it: every sleep on it waits until ``advance(by:)`` passes
/// its deadline, however long the machine takes meanwhile (docs/gateway.md, "Seams").
///
/// A test never guesses when the code under test has reached its sleep: ``sleepers(count:)`` returns once that
/// many sleeps are registered, a condition rather than a number of `Task.yield()`s. Then ``advance(by:)`` wakes
/// every sleeper whose deadline it passes, earliest first.
public final class TestClock: Clock, Sendable {
    public struct Instant: InstantProtocol {
        /// Time since the clock was made.
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        /// Sleeps canceled before they were registered.
        var canceled: Set<Int> = []

        mutating func takeID() -> Int {
            defer { nextID += 1 }
            return nextID
        }
    }

    private let state = Mutex(State())
    private let changes = StateChanges()

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { $0.takeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if state.canceled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) } else { changes.changed() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.canceled.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// How many sleeps wait now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Returns once at least `count` sleeps wait on the clock (or the task is canceled).
    public func sleepers(count: Int) async {
        await changes.wait { self.state.withLock { $0.sleepers.count >= count } }
    }

    /// Moves the time on by `duration` and wakes, earliest deadline first, every sleep it passes.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
            for (id, _) in due { state.sleepers[id] = nil }
            return due.map(\.value)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits until someone sleeps until exactly `duration` from now, then moves the time on by `duration`: for a
    /// sleep the test knows the length of, among others (timeouts) it must not wake.
    public func advanceWhenSleeping(for duration: Duration) async {
        await changes.wait { self.state.withLock { state in state.sleepers.values.contains { $0.deadline == state.now.advanced(by: duration) } } }
        advance(by: duration)
    }

    /// Waits for a sleeper, then moves the time to the earliest deadline and wakes the sleeps due then; returns how
    /// far it moved.
    @discardableResult
    public func advanceToNextDeadline() async -> Duration {
        await sleepers(count: 1)
        let step = state.withLock { state in
            state.sleepers.values.map(\.deadline).min().map { state.now.duration(to: $0) } ?? .zero
        }
        advance(by: step)
        return step
    }
}
