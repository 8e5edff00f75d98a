import CLinux
import Foundation

/// A child process started with `posix_spawn` and reaped with `waitpid`: a clean signal mask,
/// and a synchronous wait that does not depend on Foundation's run-loop based `Process` monitor.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    /// What was started, as it was named: for the messages of a hang guard.
    public let executable: String
    private let lock = NSLock()
    private var status: Int32?

    /// Where one of the child's output streams goes. Neither stream goes to the test process's own by default: a child
    /// that outlives a crashed test process — a server, a peer — would keep the run's output open, and `swift test`,
    /// reading it to its end, would wait for good.
    public enum Output {
        case discard
        case descriptor(Int32)
    }

    /// Starts `executable` (looked up on PATH) with `arguments`, and this process's environment with
    /// `environment` added; with `ownProcessGroup`, as the leader of a process group of its own, which its children
    /// join, so that `kill(-pid, …)` reaches them all.
    public init(
        _ executable: String, _ arguments: [String], standardOutput: Output = .discard, standardError: Output = .discard,
        environment: [String: String] = [:], ownProcessGroup: Bool = false
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (output, target) in [(standardOutput, Int32(1)), (standardError, Int32(2))] {
            switch output {
            case .discard: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        // Only 0, 1 and 2: a pipe another test's thread opens at this moment (Foundation's are not close-on-exec)
        // would otherwise stay open in the child — in a server that outlives its starter (PostgreSQL's postmaster
        // after pg_ctl), for good, and that test's read would never see the end of its output.
        cuffd_spawn_close_from(&actions, 3)
        // Dispatch's worker threads block signals; a child must not inherit that mask, or it
        // would never see the SIGTERM that `terminate()` sends.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (ownProcessGroup ? POSIX_SPAWN_SETPGROUP : 0)))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw PrivateBusError(message: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        self.executable = executable
    }

    deinit {
        terminate()
    }

    /// Whether the child is still running (reaps it when it has exited).
    public var isRunning: Bool {
        lock.withLock {
            if status != nil { return false }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
            status = raw
            return false
        }
    }

    /// How long ``terminate()`` waits after SIGTERM before it kills: a hang guard, never what a test measures.
    public static let stopGuard: TimeInterval = 60

    /// Sends SIGTERM and waits until the child has gone; one still running ``stopGuard`` seconds later is killed
    /// (SIGKILL), and that is said on standard error: a peer whose SIGTERM handler never returns, as mosquitto_sub's can,
    /// or a daemon whose shutdown hangs, would otherwise hold the whole run until CI gives up on it.
    public func terminate() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        guard waitForExit(killingAfter: Self.stopGuard) == 128 + SIGKILL else { return }
        FileHandle.standardError.write(Data("ChildProcess: \(executable) (pid \(pid)) had not ended \(Int(Self.stopGuard)) s after SIGTERM; killed\n".utf8))
    }

    /// Waits for the child to exit and returns its exit status (128 + signal when killed).
    @discardableResult
    public func waitForExit() -> Int32 {
        lock.withLock {
            if status == nil {
                var raw: Int32 = 0
                while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
                status = raw
            }
            let raw = status!
            // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot import.
            return raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        }
    }
}
