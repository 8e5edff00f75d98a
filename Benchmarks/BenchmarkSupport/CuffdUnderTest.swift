import DBusTestSupport
import Foundation

/// The folder of the benchmark's own executable, where SwiftPM put cuffd, cuff-sim, cuffctl and cuff-forward beside it.
public let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

/// A scenario of no cuff: cuff-sim then only plays the adapter.
public let noCuffScenario = Data(#"{"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": []}"#.utf8)

/// cuffd on a store beside cuff-sim on a private bus of its own, both ended by ``stop()`` or when this is released.
public final class CuffdUnderTest: @unchecked Sendable {
    public let bus: PrivateBus
    public let daemon: ChildProcess
    private let simulator: ChildProcess

    /// Starts cuff-sim playing `scenario` and waits until it owns org.bluez, then cuffd on `storePath` and waits for its
    /// READY=1.
    public init(storePath: String, scenario: Data = noCuffScenario) throws {
        bus = try PrivateBus()
        let scenarioFile = bus.directory.appendingPathComponent("scenario.json")
        try scenario.write(to: scenarioFile)
        let log = bus.directory.appendingPathComponent("cuff-sim.log").path
        let descriptor = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(descriptor) }
        simulator = try ChildProcess(
            binaries.appendingPathComponent("cuff-sim").path, ["--scenario", scenarioFile.path, "--bus", bus.address],
            standardOutput: .descriptor(descriptor))
        let deadline = ContinuousClock.now + .seconds(30)
        while !((try? String(contentsOfFile: log, encoding: .utf8))?.contains("org.bluez ready") ?? false) {
            guard ContinuousClock.now < deadline, simulator.isRunning else { throw TestFailure("cuff-sim did not start") }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let notify = try DatagramReceiver()
        daemon = try ChildProcess(
            binaries.appendingPathComponent("cuffd").path, ["--bus", bus.address, "--store", storePath, "--config", "/nonexistent"],
            standardError: .discard, environment: ["NOTIFY_SOCKET": notify.path])
        while true {
            guard let datagram = notify.receiveText() else { throw TestFailure("cuffd sent no READY=1") }
            if datagram.contains("READY=1") { break }
        }
        // `notify` is closed as init returns: cuffd's later STATUS= lines (one per reading stored) then fail at once,
        // where an unread socket, full after about ten datagrams, would block cuffd's main thread in sd_notify.
    }

    deinit { stop() }

    /// Ends cuffd, then cuff-sim, then the bus's dbus-daemon (a global's deinit never runs: a program ends them itself —
    /// `gateways-benchmark` left its 50 buses running after each run, each holding one of the user's 128 inotify
    /// instances, until other programs' `inotify_init1` failed with EMFILE).
    public func stop() {
        daemon.terminate()
        simulator.terminate()
        bus.stop()
    }
}

/// cuffd on the store at `storePath` beside cuff-sim (playing `scenario`, by default no cuff) on a private bus,
/// ready and settled for a second; `body` gets the bus and cuffd.
public func withCuffd<Result>(
    storePath: String, scenario: Data = noCuffScenario, _ body: (PrivateBus, ChildProcess) throws -> Result
) throws -> Result {
    let cuffd = try CuffdUnderTest(storePath: storePath, scenario: scenario)
    Thread.sleep(forTimeInterval: 1)
    return try withExtendedLifetime(cuffd) { try body(cuffd.bus, cuffd.daemon) }
}
