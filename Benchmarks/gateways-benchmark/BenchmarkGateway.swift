import BenchmarkSupport
import DBusTestSupport
import Foundation
import HealthStore

/// One gateway of the run, as a clinic would set it up (docs/forwarding.md, "Setting it up"): a store with a backlog of
/// synthetic cuff `number`'s readings, cuffd on it beside cuff-sim on a private bus of its own, and cuff-forward logging
/// in as a role of its own, `gateway<number + 1>`, writing as `ward<number + 1>`. cuff-sim plays the same cuff live:
/// once paired, it indicates a reading a second, the first 2 + `number` / `count` s after pairing, so that the gateways'
/// readings are spread evenly over each second rather than all sent at once.
final class BenchmarkGateway {
    let role: String
    let name: String
    let cuff: HealthDevice
    let directory: URL
    let cuffd: CuffdUnderTest
    let configuration: String
    private(set) var forwarder: ChildProcess?

    var storePath: String { directory.appendingPathComponent("health.sqlite").path }

    init(number: Int, of count: Int, backlog: Int, liveReadings: Int, server: PostgresServer, passwordFile: String, in folder: URL) throws {
        role = "gateway\(number + 1)"
        name = "ward\(number + 1)"
        cuff = syntheticCuff(number)
        directory = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try makeStore(directory.appendingPathComponent("health.sqlite").path, count: backlog, device: cuff)
        let live = indicatingCuffScenario(cuff, count: liveReadings, start: 2 + Double(number) / Double(count), interval: 1, bonded: false)
        cuffd = try CuffdUnderTest(storePath: directory.appendingPathComponent("health.sqlite").path, scenario: live)
        configuration = try forwardConfiguration(in: directory, gateway: name, sink: """
            [PostgreSQL]
            URL=postgresql://\(role)@/health?host=\(server.socketDirectory)&port=\(server.port)
            PasswordFile=\(passwordFile)
            SSLMode=disable
            """)
    }

    /// cuff-forward, its log in the gateway's folder.
    func startForwarder() throws {
        let log = open(directory.appendingPathComponent("forward.log").path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        defer { close(log) }
        forwarder = try ChildProcess(
            binaries.appendingPathComponent("cuff-forward").path, ["--config", configuration, "--bus", cuffd.bus.address],
            standardError: .descriptor(log))
    }

    /// Ends cuff-forward.
    func stopForwarder() {
        forwarder?.terminate()
        forwarder = nil
    }

    /// Ends cuff-forward, cuffd, cuff-sim and the gateway's bus.
    func stop() {
        stopForwarder()
        cuffd.stop()
    }

    /// `cuffctl pair` of the gateway's cuff, running: its live readings start once it has paired.
    func pair() throws -> ChildProcess {
        try ChildProcess(binaries.appendingPathComponent("cuffctl").path, ["pair", cuff.localIdentifier ?? "", "--bus", cuffd.bus.address])
    }

    /// When each reading cuffd received from the cuff (not the backlog's) was written to the gateway's store: the
    /// sample row's `created_at`, the wall clock in microseconds read as the write transaction began, before its commit.
    func commitTimes() throws -> [String: Date] {
        let output = try ExternalCommand.run("sqlite3", [
            "-readonly", "-separator", "|", storePath,
            "SELECT sync_identifier, created_at FROM sample WHERE is_correlation = 1 AND sync_identifier LIKE 'cuffd.bp:%'",
        ])
        guard output.status == 0 else { fatalError("sqlite3 \(storePath): \(output.standardError)") }
        var times: [String: Date] = [:]
        for line in output.standardOutput.split(separator: "\n") {
            let fields = line.split(separator: "|")
            guard fields.count == 2, let micros = Double(fields[1]) else { continue }
            times[String(fields[0])] = Date(timeIntervalSince1970: micros / 1e6)
        }
        return times
    }
}
