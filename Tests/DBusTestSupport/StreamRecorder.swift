/// Records every element of a stream in the background; a test waits for the next element that matches,
/// in arrival order, without ending the subscription. A waiter is woken by each element recorded.
///
/// A stream may carry sync points (`marker`): elements that are not recorded but tell `reach(_:)` that
/// everything the stream delivered before them is recorded (`DBusConnection.sync(_:with:)`).
public final class StreamRecorder<Element: Sendable>: Sendable {
    private struct Recording: Sendable {
        var elements: [Element] = []
        var cursor = 0
        var markers: Set<UInt64> = []
        var ended = false
    }

    private let recording: Observed<Recording>
    private let task: Task<Void, Never>

    public convenience init(_ stream: AsyncStream<Element>) {
        self.init(stream) { _ in nil }
    }

    /// Records `stream`; `marker` names the elements that are sync points.
    public init(_ stream: AsyncStream<Element>, marker: @escaping @Sendable (Element) -> UInt64?) {
        let recording = Observed(Recording())
        self.recording = recording
        task = Task {
            for await element in stream {
                recording.update { recording in
                    if let mark = marker(element) {
                        recording.markers.insert(mark)
                    } else {
                        recording.elements.append(element)
                    }
                }
            }
            recording.update { $0.ended = true }
        }
    }

    deinit { task.cancel() }

    /// Everything recorded so far.
    public var all: [Element] { recording.value.elements }

    /// The next recorded element after the last one returned that satisfies `predicate`, waited for.
    public func next(within timeout: Duration = testDeadline, where predicate: (Element) -> Bool) async throws -> Element {
        let found = try await recording.wait(for: "the next matching element", within: timeout) { recording -> Element?? in
            while recording.cursor < recording.elements.count {
                let element = recording.elements[recording.cursor]
                recording.cursor += 1
                if predicate(element) { return .some(element) }
            }
            return recording.ended ? .some(nil) : nil
        }
        guard let found else { throw TestFailure("the stream ended without a matching element") }
        return found
    }

    /// The first element ever recorded that satisfies `predicate`, waited for; `next` goes on where it was.
    /// For an element whose place among others is not fixed.
    public func first(within timeout: Duration = testDeadline, where predicate: (Element) -> Bool) async throws -> Element {
        let found = try await recording.wait(for: "a matching element", within: timeout) { recording -> Element?? in
            if let element = recording.elements.first(where: predicate) { return .some(element) }
            return recording.ended ? .some(nil) : nil
        }
        guard let found else { throw TestFailure("the stream ended without a matching element") }
        return found
    }

    /// Waits until the sync point `mark` has come through: everything the stream delivered before it is recorded.
    public func reach(_ mark: UInt64, within timeout: Duration = testDeadline) async throws {
        let reached = try await recording.wait(for: "sync point \(mark)", within: timeout) { recording -> Bool? in
            recording.markers.contains(mark) ? true : recording.ended ? false : nil
        }
        guard reached else { throw TestFailure("the stream ended before sync point \(mark)") }
    }
}
