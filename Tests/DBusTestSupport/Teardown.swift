import Synchronization

/// The teardown steps a test registers as it sets things up, run in reverse order and awaited when its body
/// ends — also when it throws —, so that one test's harness (a bus, an emulator, a Gateway) is gone before the
/// next test starts. A `defer { Task { await harness.stop() } }` would let the teardown overlap the next test.
public final class Teardown: Sendable {
    private let steps = Mutex<[@Sendable () async -> Void]>([])

    /// Runs `step` when the test's body has ended.
    public func add(_ step: @escaping @Sendable () async -> Void) {
        steps.withLock { $0.append(step) }
    }

    fileprivate func run() async {
        let steps = steps.withLock { steps in
            defer { steps.removeAll() }
            return steps
        }
        for step in steps.reversed() { await step() }
    }
}

/// Runs `body`, then every teardown step it registered, awaited.
public func withTeardown(_ body: (Teardown) async throws -> Void) async throws {
    let teardown = Teardown()
    do {
        try await body(teardown)
    } catch {
        await teardown.run()
        throw error
    }
    await teardown.run()
}
