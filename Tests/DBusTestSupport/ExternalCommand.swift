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
    ///
    /// The peer leads a process group of its own, and the kill reaches the whole group: a peer's own children (a
    /// browser's) would otherwise keep its output open after it was killed, and the read of that output would never
    /// end. Whatever still holds the output then (a child that left the group) is given ``afterKill`` seconds.
    public static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = hangGuard) throws -> Output {
        let out = Pipe()
        let err = Pipe()
        let child = try ChildProcess(
            executable, arguments,
            standardOutput: .descriptor(out.fileHandleForWriting.fileDescriptor),
            standardError: .descriptor(err.fileHandleForWriting.fileDescriptor), ownProcessGroup: true)
        try out.fileHandleForWriting.close()
        try err.fileHandleForWriting.close()
        let descriptors = [out.fileHandleForReading.fileDescriptor, err.fileHandleForReading.fileDescriptor]
        var collected = [Data(), Data()]
        let deadline = ContinuousClock.now + .seconds(timeout)
        var ended = drain(descriptors, into: &collected, until: deadline)
        if !ended {
            kill(-child.pid, SIGKILL)
            ended = drain(descriptors, into: &collected, until: .now + .seconds(afterKill))
        }
        // A peer that closed its output may still run: it gets the rest of its time.
        let left = max(0, ContinuousClock.now.duration(to: deadline) / .seconds(1))
        let status = child.waitForExit(killingAfter: left, target: -child.pid)
        return Output(
            status: status,
            standardOutput: String(decoding: collected[0], as: UTF8.self),
            standardError: String(decoding: collected[1], as: UTF8.self)
                + (ended ? "" : "\n[ExternalCommand: \(executable)'s output still open \(Int(afterKill)) s after it was killed]"))
    }

    /// Seconds the output of a killed peer may take to end.
    static let afterKill: TimeInterval = 10

    /// Reads `descriptors` into `collected` until each has ended (true) or `deadline` has passed (false). Both are
    /// read at once, so that a peer filling one cannot stall on the other.
    private static func drain(_ descriptors: [Int32], into collected: inout [Data], until deadline: ContinuousClock.Instant) -> Bool {
        var open = Set(descriptors.indices)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            var polled = open.sorted().map { pollfd(fd: descriptors[$0], events: Int16(POLLIN), revents: 0) }
            let milliseconds = Int32(min(left / .milliseconds(1), 60_000).rounded(.up))
            let ready = poll(&polled, nfds_t(polled.count), milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            for (index, entry) in zip(open.sorted(), polled) where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptors[index], $0.baseAddress, $0.count) }
                if count > 0 {
                    collected[index].append(contentsOf: buffer[..<count])
                } else if count == 0 || errno != EINTR {
                    open.remove(index)
                }
            }
        }
        return true
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
