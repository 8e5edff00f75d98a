import DBusTestSupport
import Synchronization

/// Everything a stream yields, kept in order from the moment it is made, and waited on as it arrives: a test
/// asks for the next element that matches, never for a time.
public final class EventRecorder<Element: Sendable>: Sendable {
    private struct State {
        var recorded: [Element] = []
        /// How far ``next(where:)`` has looked.
        var cursor = 0
        var finished = false
    }

    private let state = Mutex(State())
    private let changes = StateChanges()
    private let task = Mutex<Task<Void, Never>?>(nil)

    public init(_ stream: AsyncStream<Element>) {
        task.withLock {
            $0 = Task { [weak self] in
                for await element in stream {
                    guard let self else { return }
                    self.state.withLock { $0.recorded.append(element) }
                    self.changes.changed()
                }
                self?.state.withLock { $0.finished = true }
                self?.changes.changed()
            }
        }
    }

    deinit { task.withLock { $0?.cancel() } }

    /// Everything recorded so far.
    public var all: [Element] { state.withLock { $0.recorded } }

    /// The next element after the last one returned that satisfies `predicate`, as soon as it is recorded; throws
    /// when the stream ends without one (or the task is canceled).
    public func next(where predicate: (Element) -> Bool) async throws -> Element {
        while true {
            let (found, seen, finished) = state.withLock { state -> (Element?, Int, Bool) in
                while state.cursor < state.recorded.count {
                    let element = state.recorded[state.cursor]
                    state.cursor += 1
                    if predicate(element) { return (element, state.cursor, state.finished) }
                }
                return (nil, state.cursor, state.finished)
            }
            if let found { return found }
            if finished { throw TestFailure("the stream ended without the element waited for") }
            try Task.checkCancellation()
            await changes.wait { self.state.withLock { $0.recorded.count > seen || $0.finished } }
        }
    }

    /// ``next(where:)``, failing when nothing matching came within `deadline`: for tests over real processes, where
    /// a hang must become a failure that says what was waited for.
    public func next(within deadline: Duration, where predicate: @escaping @Sendable (Element) -> Bool) async throws -> Element {
        try await withDeadline(deadline, "nothing matching") { try await self.next(where: predicate) }
    }

    /// Returns once more than `count` elements are recorded (whatever ``next(where:)`` has looked at); throws when the
    /// stream ends first (or the task is canceled).
    public func recorded(moreThan count: Int) async throws {
        await changes.wait { self.state.withLock { $0.recorded.count > count || $0.finished } }
        try Task.checkCancellation()
        guard all.count > count else { throw TestFailure("the stream ended") }
    }
}

/// `body`, failing with `what` when it has not returned within `deadline`: for tests over real processes, where a hang
/// must become a failure that says what was waited for.
public func withDeadline<Value: Sendable>(
    _ deadline: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value.self) { group in
        group.addTask { try await body() }
        group.addTask {
            // A deadline, not a wait: it only turns a hang into a failure.
            try await Task.sleep(for: deadline)
            throw TestFailure("\(what) within \(deadline)")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
