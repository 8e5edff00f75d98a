import Broadcasting

/// Delivers "changed" signals after commit (`HKObserverQuery`: no data; the client then runs an
/// anchored query). Streams are buffered newest-first so a slow reader never blocks a writer.
final class ObserverCenter: Sendable {
    private let changes = Broadcaster<Set<String>>()

    func observe(_ types: Set<String>) -> AsyncStream<Set<String>> {
        changes.subscribe(bufferingPolicy: .bufferingNewest(64)) { changed in
            let hit = types.intersection(changed)
            return hit.isEmpty ? nil : hit
        }
    }

    /// Called after a commit with the identifiers of every type it touched.
    func notify(_ changed: Set<String>) {
        guard !changed.isEmpty else { return }
        changes.send(changed)
    }
}
