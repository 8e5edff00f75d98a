import Foundation

/// How often each thread of a process has been switched to (`/proc/PID/task/TID/status`, voluntary plus
/// involuntary context switches): a thread that was woken in between has a larger count.
public struct ThreadSwitches {
    public let counts: [Int: Int]
    /// Each thread's `Name:` line, to say which one ran.
    public let names: [Int: String]

    public init(of pid: Int32) throws {
        let tasks = "/proc/\(pid)/task"
        var counts: [Int: Int] = [:], names: [Int: String] = [:]
        for entry in try FileManager.default.contentsOfDirectory(atPath: tasks) {
            guard let tid = Int(entry),
                  let status = try? String(contentsOfFile: "\(tasks)/\(entry)/status", encoding: .utf8) else { continue }
            let lines = status.split(separator: "\n")
            counts[tid] = lines.filter { $0.contains("ctxt_switches:") }
                .compactMap { $0.split(separator: "\t").last.flatMap { Int($0) } }
                .reduce(0, +)
            names[tid] = lines.first.map(String.init)
        }
        self.counts = counts
        self.names = names
    }

    /// The threads of `pid` that ran during three seconds, after six to settle: libdispatch's idle worker threads
    /// (a D-Bus connection's queue) end after 5 s, which is not polling. Empty for a process that sleeps.
    ///
    /// Both sleeps stay, as measurement windows rather than waits: "idle" means that nothing runs for a while,
    /// so the check needs real time to pass, and there is no event that says a process will not wake. Neither
    /// window gets shorter on a slow machine (a sleep never ends early); the first only has to outlast
    /// libdispatch's 5 s worker timeout, whose exit is then not counted (a thread that is gone has no entry).
    public static func wokenWhileIdle(_ pid: Int32) async throws -> (woken: [Int: Int], names: [Int: String]) {
        try await Task.sleep(for: .seconds(6))  // measurement window: libdispatch's idle workers leave (see above)
        let before = try ThreadSwitches(of: pid)
        try await Task.sleep(for: .seconds(3))  // measurement window: what runs while the process is idle
        let after = try ThreadSwitches(of: pid)
        return (after.woken(since: before), after.names)
    }

    /// The threads that ran since `earlier`, with how many times; a thread that appeared counts from zero.
    public func woken(since earlier: ThreadSwitches) -> [Int: Int] {
        counts.reduce(into: [:]) { woken, thread in
            let runs = thread.value - (earlier.counts[thread.key] ?? 0)
            if runs != 0 { woken[thread.key] = runs }
        }
    }
}
