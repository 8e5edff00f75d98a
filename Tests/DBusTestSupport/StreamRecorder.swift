import Foundation

/// Records every element of a stream in the background; a test waits for the next element that matches,
/// in arrival order, without ending the subscription.
public final class StreamRecorder<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Element] = []
    private var cursor = 0
    private var task: Task<Void, Never>?

    public init(_ stream: AsyncStream<Element>) {
        task = Task { [weak self] in
            for await element in stream {
                guard let self else { return }
                self.lock.withLock { self.recorded.append(element) }
            }
        }
    }

    deinit { task?.cancel() }

    /// Everything recorded so far.
    public var all: [Element] { lock.withLock { recorded } }

    /// The next recorded element after the last one returned that satisfies `predicate`.
    public func next(within timeout: Duration = .seconds(15), where predicate: (Element) -> Bool) async throws -> Element {
        let deadline = ContinuousClock.now + timeout
        while true {
            let found: Element? = lock.withLock {
                while cursor < recorded.count {
                    let element = recorded[cursor]
                    cursor += 1
                    if predicate(element) { return element }
                }
                return nil
            }
            if let found { return found }
            guard ContinuousClock.now < deadline else { throw TestFailure("nothing matching within \(timeout)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// Lines a component logged (cuff-sim's event lines), for checks of what it did.
public final class LineLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    public init() {}
    public func append(_ line: String) { lock.withLock { lines.append(line) } }
    public var all: [String] { lock.withLock { lines } }
    /// How many lines contain `fragment`.
    public func count(_ fragment: String) -> Int { all.filter { $0.contains(fragment) }.count }
}

/// A test's own failure, with what was expected.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
