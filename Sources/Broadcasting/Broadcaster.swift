import Synchronization

/// Hands each event to every current subscriber, each reading a stream of its own: the one shape behind
/// cuffd's event sources (the D-Bus connection's events, BlueZ's mirror, the Gateway, the store's observers).
/// Safe to use from any thread or actor; a subscriber that stops reading is dropped when its stream ends.
public final class Broadcaster<Event: Sendable>: Sendable {
    private struct Subscriber {
        let continuation: AsyncStream<Event>.Continuation
        let transform: @Sendable (Event) -> Event?
    }

    private struct State {
        var next = 0
        var subscribers: [Int: Subscriber] = [:]
        /// Set by ``close(last:)``: later subscribers get this and their stream ends at once.
        var closed: Event??
    }

    private let state = Mutex(State())

    public init() {}

    /// Every event from now on. `bufferingPolicy` bounds what a slow reader may fall behind; `transform`
    /// reshapes an event for this subscriber, or drops it (nil).
    public func subscribe(
        bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy = .unbounded,
        transform: @escaping @Sendable (Event) -> Event? = { $0 }
    ) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: bufferingPolicy)
        let token: Int? = state.withLock { state in
            if let closed = state.closed {
                if let last = closed { continuation.yield(last) }
                continuation.finish()
                return nil
            }
            let token = state.next
            state.next += 1
            state.subscribers[token] = Subscriber(continuation: continuation, transform: transform)
            return token
        }
        if let token {
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.subscribers.removeValue(forKey: token) }
            }
        }
        return stream
    }

    /// Sends `event` to every subscriber (as its `transform` shapes it).
    public func send(_ event: Event) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers {
            if let shaped = subscriber.transform(event) { subscriber.continuation.yield(shaped) }
        }
    }

    /// Ends every current stream, after `last` if given; later subscribers are served as before.
    public func finishAll(last: Event? = nil) {
        let subscribers = state.withLock { state in
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers {
            if let last { subscriber.continuation.yield(last) }
            subscriber.continuation.finish()
        }
    }

    /// Ends every stream after `last`, for good: a later subscriber gets `last` and its stream ends at once.
    public func close(last: Event? = nil) {
        state.withLock { $0.closed = .some(last) }
        finishAll(last: last)
    }
}
