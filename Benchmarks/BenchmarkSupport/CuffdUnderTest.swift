import DBusTestSupport
import Foundation

/// The folder of the benchmark's own executable, where SwiftPM put cuffd, cuff-sim, cuffctl and cuff-forward beside it.
public let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

/// cuffd on the store at `storePath` beside cuff-sim (playing `scenario`, by default no cuff) on a private bus,
/// ready; `body` gets the bus and cuffd.
public func withCuffd<Result>(
    storePath: String, scenario scenarioJSON: Data = Data(#"{"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": []}"#.utf8),
    _ body: (PrivateBus, ChildProcess) throws -> Result
) throws -> Result {
    let bus = try PrivateBus()
    let scenario = bus.directory.appendingPathComponent("scenario.json")
    try scenarioJSON.write(to: scenario)
    let simulator = try ChildProcess(binaries.appendingPathComponent("cuff-sim").path, ["--scenario", scenario.path, "--bus", bus.address])
    defer { simulator.terminate() }
    Thread.sleep(forTimeInterval: 1)
    // Read until READY=1, then closed: cuffd's later STATUS= lines (one per reading stored) then fail at once, where
    // an unread socket, full after about ten datagrams, would block cuffd's main thread in sd_notify.
    var notify: DatagramReceiver? = try DatagramReceiver()
    let daemon = try ChildProcess(
        binaries.appendingPathComponent("cuffd").path, ["--bus", bus.address, "--store", storePath, "--config", "/nonexistent"],
        standardError: .discard, environment: ["NOTIFY_SOCKET": notify!.path])
    defer { daemon.terminate() }
    while let datagram = notify?.receiveText(), !datagram.contains("READY=1") {}
    notify = nil
    Thread.sleep(forTimeInterval: 1)
    return try body(bus, daemon)
}
