import Foundation

/// Runs blocking work — waiting for a child process, reading its output to the end, polling a file — on a
/// thread of its own. Swift's cooperative pool has as many threads as cores (two on these machines); a test
/// that blocks one starves the tasks of every other test running beside it, D-Bus handlers included, until
/// their calls time out.
public func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
