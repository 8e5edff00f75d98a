/// How long a test waits for something before it fails. A deadline only turns a hang into a failure, so it is far
/// longer than anything a test waits for takes, on any machine: waits are for conditions (a signal, a state, a
/// row), never for a time.
public let testDeadline: Duration = .seconds(60)

/// Runs `body`, and fails with `TestFailure` naming `what` when it has not ended within `timeout`: for a wait on
/// something that has no deadline of its own. The body is canceled then, and left to end by itself.
public func withDeadline<Value: Sendable>(
    _ what: String, within timeout: Duration = testDeadline, _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let outcome = Observed<Result<Value, any Error>?>(nil)
    let work = Task {
        let result: Result<Value, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        outcome.update { $0 = result }
    }
    do {
        return try await outcome.wait(for: what, within: timeout) { $0 }.get()
    } catch {
        work.cancel()
        throw error
    }
}
