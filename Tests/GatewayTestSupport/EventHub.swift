import Synchronization

/// Hands events to subscribers, each reading a stream of its own, and knows when every subscriber has taken
/// everything sent and asks for more: ``settled()``, the moment a test may look at what the events did (swift-nio's
/// `EmbeddedEventLoop.run()` plays that part there).
///
/// A subscriber counts as busy from the moment it takes an event until it asks for the next one, so a follower
/// that handles each event before it asks (`for await event in events { await handle(event) }`) has handled all
/// of them once the hub is settled. A stream that is dropped or whose reader is canceled stops counting.
public final class EventHub<Event: Sendable>: Sendable {
    private struct Subscriber {
        var queue: [Event] = []
        var reader: CheckedContinuation<Event?, Never>?
        var finished = false

        var isIdle: Bool { queue.isEmpty && (reader != nil || finished) }
    }

    private struct State {
        var nextID = 0
        var subscribers: [Int: Subscriber] = [:]
        /// Readers canceled before they asked.
        var canceled: Set<Int> = []

        mutating func takeID() -> Int {
            defer { nextID += 1 }
            return nextID
        }
    }

    /// Unsubscribes when the stream that holds it is gone.
    private final class Subscription: Sendable {
        let hub: EventHub
        let id: Int

        init(hub: EventHub, id: Int) {
            self.hub = hub
            self.id = id
        }

        deinit { hub.remove(id) }
    }

    private let state = Mutex(State())
    /// Signaled whenever a subscriber asks for an event or goes.
    private let changes = StateChanges()

    public init() {}

    /// Every event from now on.
    public func subscribe() -> AsyncStream<Event> {
        let id = state.withLock { state in
            let id = state.takeID()
            state.subscribers[id] = Subscriber()
            return id
        }
        let subscription = Subscription(hub: self, id: id)
        return AsyncStream(unfolding: { await subscription.hub.next(subscription.id) })
    }

    /// Queues `event` for every subscriber.
    public func send(_ event: Event) {
        let readers = state.withLock { state -> [CheckedContinuation<Event?, Never>] in
            var readers: [CheckedContinuation<Event?, Never>] = []
            for id in state.subscribers.keys where !state.subscribers[id]!.finished {
                if let reader = state.subscribers[id]!.reader {
                    state.subscribers[id]!.reader = nil
                    readers.append(reader)
                } else {
                    state.subscribers[id]!.queue.append(event)
                }
            }
            return readers
        }
        for reader in readers { reader.resume(returning: event) }
    }

    /// Ends every stream after what is queued in it.
    public func finishAll() {
        let readers = state.withLock { state -> [CheckedContinuation<Event?, Never>] in
            var readers: [CheckedContinuation<Event?, Never>] = []
            for id in state.subscribers.keys {
                state.subscribers[id]!.finished = true
                if let reader = state.subscribers[id]!.reader {
                    state.subscribers[id]!.reader = nil
                    readers.append(reader)
                }
            }
            return readers
        }
        for reader in readers { reader.resume(returning: nil) }
        changes.changed()
    }

    /// Returns once every subscriber has taken every event sent so far and asks for the next one (or the task is
    /// canceled).
    public func settled() async {
        await changes.wait { self.state.withLock { $0.subscribers.values.allSatisfy(\.isIdle) } }
    }

    private func next(_ id: Int) async -> Event? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Event?, Never>) in
                let answer = state.withLock { state -> Event?? in
                    guard state.canceled.remove(id) == nil, var subscriber = state.subscribers[id] else { return .some(nil) }
                    if !subscriber.queue.isEmpty {
                        let event = subscriber.queue.removeFirst()
                        state.subscribers[id] = subscriber
                        return .some(event)
                    }
                    if subscriber.finished { return .some(nil) }
                    subscriber.reader = continuation
                    state.subscribers[id] = subscriber
                    return nil
                }
                if let answer { continuation.resume(returning: answer) } else { changes.changed() }
            }
        } onCancel: {
            remove(id, canceled: true)
        }
    }

    /// Drops subscriber `id`, answering its reader with the end of the stream.
    private func remove(_ id: Int, canceled: Bool = false) {
        let reader = state.withLock { state -> CheckedContinuation<Event?, Never>?? in
            guard let subscriber = state.subscribers.removeValue(forKey: id) else {
                if canceled { state.canceled.insert(id) }
                return nil
            }
            if canceled && subscriber.reader == nil { state.canceled.insert(id) }
            return .some(subscriber.reader)
        }
        guard let reader else { return }
        reader?.resume(returning: nil)
        changes.changed()
    }
}
