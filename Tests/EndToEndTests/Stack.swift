import DBusTestSupport
import Foundation
import Testing

/// cuffd as a user runs it, on a private bus: cuff-sim playing a shipped scenario as bluetoothd, cuffd with a
/// store, configuration, notify and journal sockets of the test's own, and cuffctl run as a process —
/// as root, or as another user through setpriv(1).
final class Stack: @unchecked Sendable {
    let bus: PrivateBus
    let directory: URL
    /// Stand-ins for PID 1's notify socket and journald's socket, read all the time as theirs are: an unread
    /// AF_UNIX datagram socket holds about ten datagrams, then a sender blocks.
    let notify: DatagramCollector
    let journal: DatagramCollector
    /// Counts each write of a process of the stack to its log (``logWriter(_:)``), and its end: a wait for a log line
    /// looks again at each.
    let logged = Observed(0)
    let scenario: URL
    private let simulator: ChildProcess
    private(set) var daemon: ChildProcess?
    /// Opens once everything the running (or last) cuffd wrote is in cuffd.log.
    private var daemonLogEnded = Gate()
    private let daemonArguments: [String]

    static let binaries = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenarios")

    var storePath: String { directory.appendingPathComponent("health.sqlite").path }
    var configurationPath: String { directory.appendingPathComponent("cuffd.conf").path }

    /// A stack made off the cooperative pool (starting the bus waits for it), on the shipped scenario `name` with `edits`
    /// (text → replacement, each text present) made to a copy of its file, once cuff-sim says it is ready. With
    /// `manualStart`, the timeline's `pressStart` step waits for the test (``measure(_:_:as:)``, ``pressStart(_:whenArmed:)``).
    static func make(
        scenario name: String, edits: [String: String] = [:], policy: String = PrivateBus.permissivePolicy, configuration: String = "",
        daemonArguments: [String] = [], manualStart: Bool = false
    ) async throws -> Stack {
        let stack = try await offCooperativePool {
            try Stack(
                scenario: name, edits: edits, policy: policy, configuration: configuration, daemonArguments: daemonArguments,
                manualStart: manualStart)
        }
        try await stack.wait(for: "org.bluez ready", in: "cuff-sim.log")
        return stack
    }

    private init(
        scenario name: String, edits: [String: String], policy: String, configuration: String, daemonArguments: [String], manualStart: Bool
    ) throws {
        bus = try PrivateBus(policy: policy)
        directory = bus.directory
        notify = try DatagramCollector()
        journal = try DatagramCollector()
        scenario = try Self.scenario(name, edits, in: directory)
        // Heart-rate values committed a second after they arrive, as before the setting existed, unless the test sets
        // the window itself: the tests that watch a strap's values arrive mid-stream do not wait for a minute's batch.
        let window = configuration.contains("HeartRateFlushInterval") ? "" : "\n[Store]\nHeartRateFlushInterval=1\n"
        try (configuration + window).write(toFile: directory.appendingPathComponent("cuffd.conf").path, atomically: true, encoding: .utf8)
        self.daemonArguments = daemonArguments
        let simulatorLog = try logPipe(appendingTo: directory.appendingPathComponent("cuff-sim.log"), counting: logged)
        simulator = try ChildProcess(
            Self.binaries.appendingPathComponent("cuff-sim").path,
            ["--scenario", scenario.path, "--bus", bus.address] + (manualStart ? ["--manual-start"] : []),
            standardOutput: .descriptor(simulatorLog), standardError: .descriptor(simulatorLog))
        close(simulatorLog)
    }

    deinit {
        daemon?.terminate()
        simulator.terminate()
        notify.stop()
        journal.stop()
    }

    /// Starts cuffd and waits for READY=1 on the notify socket, or for cuffd to exit without it; returns the time
    /// that took.
    @discardableResult
    func startDaemon(environment: [String: String] = [:]) async throws -> Duration {
        let logEnded = Gate()
        let log = try logWriter("cuffd.log", ended: logEnded)
        daemonLogEnded = logEnded
        let clock = ContinuousClock()
        let started = clock.now
        let skip = notify.count
        let daemon = try ChildProcess(
            Self.binaries.appendingPathComponent("cuffd").path,
            ["--bus", bus.address, "--store", storePath, "--config", configurationPath, "--journal-socket", journal.path] + daemonArguments,
            standardOutput: .descriptor(log), standardError: .descriptor(log), environment: environment.merging(["NOTIFY_SOCKET": notify.path]) { _, new in new })
        close(log)
        self.daemon = daemon
        notify.wake(whenExits: daemon)
        let ready: @Sendable () -> Bool = { self.notify.texts.dropFirst(skip).contains { $0.contains("READY=1") } }
        try await notify.received.wait(for: "cuffd's READY=1 or its exit:\n\(self.text("cuffd.log"))") { _ in ready() || !daemon.isRunning ? () : nil }
        guard ready() else { throw TestFailure("cuffd exited without READY=1:\n\(text("cuffd.log"))") }
        return clock.now - started
    }

    /// Stops cuffd with SIGTERM and returns its exit status; a cuffd that has not stopped 30 s later is killed and
    /// fails the test (a shutdown that hangs, as one held up by its watchdog loop once did).
    func stopDaemon() async throws -> Int32 {
        guard let daemon else { return -1 }
        kill(daemon.pid, SIGTERM)
        let status = try await offCooperativePool { daemon.waitForExit(killingAfter: 30) }
        try await daemonLogEnded.wait()
        guard status != 128 + SIGKILL else { throw TestFailure("cuffd did not stop within 30 s of SIGTERM:\n\(text("cuffd.log"))") }
        return status
    }

    /// Kills cuffd at once, as a crash or power loss of the process would.
    func killDaemon() async throws {
        guard let daemon else { return }
        kill(daemon.pid, SIGKILL)
        _ = try await daemonExit()
    }

    /// cuffd's exit status, once it has exited and all it wrote is in cuffd.log; a cuffd that has not exited within the
    /// hang guard is killed, and its status says so (128 + SIGKILL).
    func daemonExit() async throws -> Int32 {
        guard let daemon else { return -1 }
        let status = try await offCooperativePool { daemon.waitForExit(killingAfter: ExternalCommand.hangGuard) }
        try await daemonLogEnded.wait()
        return status
    }

    struct Outcome: Sendable {
        let status: Int32
        let output: String
        let error: String
    }

    /// Runs `cuffctl ARGUMENTS --bus …`, as root or as `user` (uid, gid, supplementary groups) via setpriv.
    func cuffctl(_ arguments: [String], as user: Account? = nil) async throws -> Outcome {
        try await offCooperativePool { try self.cuffctlBlocking(arguments, as: user) }
    }

    typealias Account = (uid: UInt32, gid: UInt32, groups: [UInt32])

    private func cuffctlBlocking(_ arguments: [String], as user: Account?) throws -> Outcome {
        var argv = [Self.binaries.appendingPathComponent("cuffctl").path] + arguments + ["--bus", bus.address]
        if let user {
            let groups = user.groups.isEmpty ? ["--clear-groups"] : ["--groups=" + user.groups.map(String.init).joined(separator: ",")]
            argv = ["/usr/bin/setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)"] + groups + argv
        }
        let result = try ExternalCommand.run(argv[0], Array(argv.dropFirst()))
        return Outcome(status: result.status, output: result.standardOutput, error: result.standardError)
    }

    /// Starts a long-running `cuffctl ARGUMENTS --bus …` whose output goes to `log` in the stack's folder.
    func startCuffctl(_ arguments: [String], log: String) throws -> ChildProcess {
        let descriptor = try logWriter(log)
        defer { close(descriptor) }
        return try ChildProcess(
            Self.binaries.appendingPathComponent("cuffctl").path, arguments + ["--bus", bus.address],
            standardOutput: .descriptor(descriptor), standardError: .descriptor(descriptor))
    }

    /// `readings --json` as objects.
    func readings(as user: Account? = nil) async throws -> [[String: Any]] {
        let outcome = try await cuffctl(["readings", "--json"], as: user)
        guard outcome.status == 0 else { throw TestFailure("readings exited \(outcome.status): \(outcome.error)") }
        return try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [[String: Any]] ?? []
    }

    /// Every journal entry cuffd sent so far, as fields.
    func journalEntries() -> [[String: String]] {
        journal.datagrams.map(parseJournalEntry)
    }

    func text(_ log: String) -> String {
        (try? String(contentsOf: directory.appendingPathComponent(log), encoding: .utf8)) ?? ""
    }

    /// Waits until `log`, in the stack's folder, contains `fragment`.
    func wait(for fragment: String, in log: String, within timeout: Duration = testDeadline) async throws {
        try await logged.wait(for: "\"\(fragment)\" in \(log):\n\(text(log))", within: timeout) { _ in self.text(log).contains(fragment) ? () : nil }
    }

    /// The write end of a pipe for a process's standard output and error, whose bytes go to `log` in the stack's
    /// folder (``logPipe(appendingTo:counting:)``), counted in ``logged``. The caller closes it once the process has
    /// started.
    func logWriter(_ log: String, ended: Gate? = nil) throws -> Int32 {
        try logPipe(appendingTo: directory.appendingPathComponent(log), counting: logged, ended: ended)
    }

    /// The shipped scenario `name`, or a copy of it in `directory` with `edits` made.
    private static func scenario(_ name: String, _ edits: [String: String], in directory: URL) throws -> URL {
        let shipped = scenarios.appendingPathComponent(name)
        guard !edits.isEmpty else { return shipped }
        var text = try String(contentsOf: shipped, encoding: .utf8)
        for (original, replacement) in edits {
            guard text.contains(original) else { throw TestFailure("\(name) has no \"\(original)\" to edit") }
            text = text.replacingOccurrences(of: original, with: replacement)
        }
        let copy = directory.appendingPathComponent("edited-" + name)
        try text.write(to: copy, atomically: true, encoding: .utf8)
        return copy
    }
}

/// A datagram socket read on a thread of its own from the start, keeping everything it received; a test waits for
/// what it expects to arrive (``received``).
final class DatagramCollector: @unchecked Sendable {
    private let receiver: DatagramReceiver
    private let lock = NSLock()
    private var collected: [[UInt8]] = []
    private var running = true
    /// Counts the datagrams, and the exit of a process ``wake(whenExits:)`` watches: a wait looks again at each.
    let received = Observed(0)

    var path: String { receiver.path }
    var datagrams: [[UInt8]] { lock.withLock { collected } }
    var texts: [String] { datagrams.map { String(decoding: $0, as: UTF8.self) } }
    var count: Int { lock.withLock { collected.count } }

    init() throws {
        receiver = try DatagramReceiver()
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                guard let datagram = receiver.receive(timeout: .milliseconds(100)) else { continue }
                lock.withLock { collected.append(datagram.bytes) }
                received.update { $0 += 1 }
            }
        }
    }

    func stop() { lock.withLock { running = false } }

    /// Counts a change of ``received`` once `child` has exited (waitid(2) with WNOWAIT, which leaves it to be reaped by its owner).
    func wake(whenExits child: ChildProcess) {
        Thread.detachNewThread { [received] in
            var info = siginfo_t()
            _ = waitid(P_PID, id_t(child.pid), &info, WEXITED | WNOWAIT)
            received.update { $0 += 1 }
        }
    }
}
