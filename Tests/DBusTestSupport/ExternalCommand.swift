import Foundation

/// Runs a third-party peer (busctl, gdbus, python) and collects what it prints.
public enum ExternalCommand {
    public struct Output: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
    }

    /// Whether `name` is on PATH (a missing tool is a failed precondition, not a passed test).
    public static func exists(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }

    /// How long a peer may run before it is killed: only a hang guard, longer than a peer's own deadlines
    /// (`testDeadline`), so that a peer that gives up has said why.
    public static let hangGuard = 2 * TimeInterval(testDeadline.components.seconds)

    /// Runs `executable` to completion, killing it after `timeout` seconds. Blocks the calling
    /// thread, so async tests call it through `runDetached`.
    public static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = hangGuard) throws -> Output {
        let out = Pipe()
        let err = Pipe()
        let child = try ChildProcess(
            executable, arguments,
            standardOutput: .descriptor(out.fileHandleForWriting.fileDescriptor),
            standardError: .descriptor(err.fileHandleForWriting.fileDescriptor))
        try out.fileHandleForWriting.close()
        try err.fileHandleForWriting.close()
        let watchdog = DispatchSource.makeTimerSource()
        watchdog.schedule(deadline: .now() + timeout)
        watchdog.setEventHandler { kill(child.pid, SIGKILL) }
        watchdog.resume()
        defer { watchdog.cancel() }
        // Both pipes are drained at once so a peer filling one cannot stall on the other.
        let errorData = LockedData()
        let errorReader = Thread { errorData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outputData = out.fileHandleForReading.readDataToEndOfFile()
        let status = child.waitForExit()
        return Output(
            status: status,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.waitForValue(), as: UTF8.self))
    }

    /// `run` on a thread of its own, so a test's task does not block the cooperative pool.
    public static func runDetached(_ executable: String, _ arguments: [String], timeout: TimeInterval = hangGuard) async throws -> Output {
        try await offCooperativePool { try run(executable, arguments, timeout: timeout) }
    }

    /// Starts a long-running peer whose standard output the caller reads line by line; the
    /// peer is terminated when the returned `ChildProcess` goes away.
    public static func start(_ executable: String, _ arguments: [String]) throws -> (ChildProcess, FileHandle) {
        let out = Pipe()
        let child = try ChildProcess(executable, arguments, standardOutput: .descriptor(out.fileHandleForWriting.fileDescriptor))
        try out.fileHandleForWriting.close()
        return (child, out.fileHandleForReading)
    }
}

/// Data handed from a reader thread to the thread that waits for it.
private final class LockedData: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Data?

    func set(_ data: Data) {
        condition.withLock {
            value = data
            condition.signal()
        }
    }

    func waitForValue() -> Data {
        condition.withLock {
            while value == nil { condition.wait() }
            return value!
        }
    }
}
