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
    let scenario: URL
    private let simulator: ChildProcess
    private(set) var daemon: ChildProcess?
    private let daemonArguments: [String]

    static let binaries = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenarios")

    var storePath: String { directory.appendingPathComponent("health.sqlite").path }
    var configurationPath: String { directory.appendingPathComponent("cuffd.conf").path }

    /// A stack made off the cooperative pool (starting cuff-sim waits for it), on the shipped scenario `name` with `edits`
    /// (text → replacement, each text present) made to a copy of its file.
    static func make(
        scenario name: String, edits: [String: String] = [:], policy: String = PrivateBus.permissivePolicy, configuration: String = "",
        daemonArguments: [String] = []
    ) async throws -> Stack {
        try await offCooperativePool { try Stack(scenario: name, edits: edits, policy: policy, configuration: configuration, daemonArguments: daemonArguments) }
    }

    private init(scenario name: String, edits: [String: String], policy: String, configuration: String, daemonArguments: [String]) throws {
        bus = try PrivateBus(policy: policy)
        directory = bus.directory
        notify = try DatagramCollector()
        journal = try DatagramCollector()
        scenario = try Self.scenario(name, edits, in: directory)
        try configuration.write(toFile: directory.appendingPathComponent("cuffd.conf").path, atomically: true, encoding: .utf8)
        self.daemonArguments = daemonArguments
        let simulatorLog = try Self.logFile(directory.appendingPathComponent("cuff-sim.log"))
        simulator = try ChildProcess(
            Self.binaries.appendingPathComponent("cuff-sim").path, ["--scenario", scenario.path, "--bus", bus.address],
            standardOutput: .descriptor(simulatorLog), standardError: .descriptor(simulatorLog))
        close(simulatorLog)
        try wait(for: "org.bluez ready", in: "cuff-sim.log")
    }

    deinit {
        daemon?.terminate()
        simulator.terminate()
        notify.stop()
        journal.stop()
    }

    /// Starts cuffd and waits for READY=1 on the notify socket; returns the time that took.
    @discardableResult
    func startDaemon(environment: [String: String] = [:]) async throws -> Duration {
        try await offCooperativePool { try self.startDaemonBlocking(environment: environment) }
    }

    private func startDaemonBlocking(environment: [String: String]) throws -> Duration {
        let log = try Self.logFile(directory.appendingPathComponent("cuffd.log"))
        let clock = ContinuousClock()
        let started = clock.now
        daemon = try ChildProcess(
            Self.binaries.appendingPathComponent("cuffd").path,
            ["--bus", bus.address, "--store", storePath, "--config", configurationPath, "--journal-socket", journal.path] + daemonArguments,
            standardOutput: .descriptor(log), standardError: .descriptor(log), environment: environment.merging(["NOTIFY_SOCKET": notify.path]) { _, new in new })
        close(log)
        let skip = notify.count
        while clock.now - started < .seconds(10) {
            if notify.texts.dropFirst(skip).contains(where: { $0.contains("READY=1") }) { return clock.now - started }
            guard daemon?.isRunning == true else { break }
            Thread.sleep(forTimeInterval: 0.005)
        }
        throw TestFailure("cuffd sent no READY=1:\n\(text("cuffd.log"))")
    }

    /// Stops cuffd with SIGTERM and returns its exit status.
    func stopDaemon() async throws -> Int32 {
        guard let daemon else { return -1 }
        kill(daemon.pid, SIGTERM)
        return try await daemonExit()
    }

    /// Kills cuffd at once, as a crash or power loss of the process would.
    func killDaemon() async throws {
        guard let daemon else { return }
        kill(daemon.pid, SIGKILL)
        _ = try await daemonExit()
    }

    /// cuffd's exit status, once it has exited.
    func daemonExit() async throws -> Int32 {
        guard let daemon else { return -1 }
        return try await offCooperativePool { daemon.waitForExit() }
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
        let process = Process()
        let cuffctl = Self.binaries.appendingPathComponent("cuffctl").path
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            let groups = user.groups.isEmpty ? ["--clear-groups"] : ["--groups=" + user.groups.map(String.init).joined(separator: ",")]
            process.arguments = ["--reuid=\(user.uid)", "--regid=\(user.gid)"] + groups + [cuffctl] + arguments + ["--bus", bus.address]
        } else {
            process.executableURL = URL(fileURLWithPath: cuffctl)
            process.arguments = arguments + ["--bus", bus.address]
        }
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self), error: String(decoding: err, as: UTF8.self))
    }

    /// Starts a long-running `cuffctl ARGUMENTS --bus …` whose output goes to `log` in the stack's folder.
    func startCuffctl(_ arguments: [String], log: String) throws -> ChildProcess {
        let descriptor = try Self.logFile(directory.appendingPathComponent(log))
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

    func wait(for fragment: String, in log: String, within timeout: Duration = .seconds(10)) throws {
        let deadline = ContinuousClock.now + timeout
        while !text(log).contains(fragment) {
            guard ContinuousClock.now < deadline else { throw TestFailure("no \"\(fragment)\" in \(log):\n\(text(log))") }
            Thread.sleep(forTimeInterval: 0.02)
        }
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

    private static func logFile(_ url: URL) throws -> Int32 {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard descriptor >= 0 else { throw TestFailure("cannot create \(url.path)") }
        return descriptor
    }
}

/// A datagram socket read on a thread of its own from the start, keeping everything it received.
final class DatagramCollector: @unchecked Sendable {
    private let receiver: DatagramReceiver
    private let lock = NSLock()
    private var received: [[UInt8]] = []
    private var running = true

    var path: String { receiver.path }
    var datagrams: [[UInt8]] { lock.withLock { received } }
    var texts: [String] { datagrams.map { String(decoding: $0, as: UTF8.self) } }
    var count: Int { lock.withLock { received.count } }

    init() throws {
        receiver = try DatagramReceiver()
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                if let datagram = receiver.receive(timeout: .milliseconds(100)) { lock.withLock { received.append(datagram.bytes) } }
            }
        }
    }

    func stop() { lock.withLock { running = false } }
}
