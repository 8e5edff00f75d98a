import Foundation
import Synchronization

/// Delivers "changed" signals after commit (`HKObserverQuery`: no data; the client then runs an
/// anchored query). Streams are buffered newest-first so a slow reader never blocks a writer.
final class ObserverCenter: Sendable {
    private struct Observer: Sendable {
        let types: Set<String>
        let continuation: AsyncStream<Set<String>>.Continuation
    }

    private let observers = Mutex<[UUID: Observer]>([:])

    func observe(_ types: Set<String>) -> AsyncStream<Set<String>> {
        let (stream, continuation) = AsyncStream<Set<String>>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let id = UUID()
        observers.withLock { $0[id] = Observer(types: types, continuation: continuation) }
        continuation.onTermination = { [weak self] _ in
            _ = self?.observers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Called after a commit with the identifiers of every type it touched.
    func notify(_ changed: Set<String>) {
        guard !changed.isEmpty else { return }
        let targets = observers.withLock { Array($0.values) }
        for observer in targets {
            let hit = observer.types.intersection(changed)
            if !hit.isEmpty { observer.continuation.yield(hit) }
        }
    }
}
