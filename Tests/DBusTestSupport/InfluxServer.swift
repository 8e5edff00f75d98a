import Foundation

/// An InfluxDB 1.x of the test's own (Debian's `influxd`): a configuration and its data in `directory`, HTTP and RPC on
/// free ports of 127.0.0.1, nothing reported or monitored, database `health` made at the first start. Ready when it says
/// so (`Listening on HTTP` in its log, read through a pipe: ``log``); its data is kept across ``stop()`` and ``start()``.
/// Queried through `/query` with curl, an independent client. `stop()` must be called in the test's teardown.
public final class InfluxServer: @unchecked Sendable {
    public let directory: URL
    public let port: Int
    /// influxd's log lines, of every start.
    public let log = LineLog()
    private let lock = NSLock()
    private var process: ChildProcess?

    public static var available: Bool { ExternalCommand.exists("influxd") && ExternalCommand.exists("curl") }

    /// `/write` for database `health`.
    public var writeURL: String { "http://127.0.0.1:\(port)/write?db=health" }

    public init(in directory: URL) async throws {
        self.directory = directory
        port = try freeLoopbackPort()
        try """
            reporting-disabled = true
            bind-address = "127.0.0.1:\(try freeLoopbackPort())"
            [meta]
              dir = "\(directory.path)/meta"
            [data]
              dir = "\(directory.path)/data"
              wal-dir = "\(directory.path)/wal"
              query-log-enabled = false
            [monitor]
              store-enabled = false
            [subscriber]
              enabled = false
            [http]
              bind-address = "127.0.0.1:\(port)"
              log-enabled = false
            """.write(to: directory.appendingPathComponent("influxdb.conf"), atomically: false, encoding: .utf8)
        try await start()
        _ = try query("CREATE DATABASE health", post: true)
    }

    /// Starts influxd and waits for its word that it listens: one `Listening on HTTP` more than before.
    public func start() async throws {
        let started = log.count("Listening on HTTP")
        let output = Pipe()
        let child = try ChildProcess(
            "influxd", ["run", "-config", directory.appendingPathComponent("influxdb.conf").path],
            standardOutput: .descriptor(output.fileHandleForWriting.fileDescriptor), standardError: .descriptor(output.fileHandleForWriting.fileDescriptor))
        try output.fileHandleForWriting.close()
        lock.withLock { process = child }
        Thread.detachNewThread { [log] in
            var pending = Data()
            while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let end = pending.firstIndex(of: 0x0A) {
                    log.append(String(decoding: pending[pending.startIndex..<end], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...end)
                }
            }
        }
        try await log.waitFor("Listening on HTTP", count: started + 1)
    }

    /// SIGTERM, and waits for influxd to exit.
    public func stop() {
        guard let child = lock.withLock({ process.take() }) else { return }
        child.terminate()
        _ = child.waitForExit()
    }

    /// The rows of an InfluxQL query's first series: each row its columns' values, time first — RFC 3339, or in `epoch`
    /// units (`ns`).
    public func query(_ query: String, post: Bool = false, epoch: String? = nil) throws -> [[Any]] {
        let output = try ExternalCommand.run(
            "curl",
            ["-sS", "--fail-with-body", post ? "-XPOST" : "-G", "http://127.0.0.1:\(port)/query", "--data-urlencode", "db=health", "--data-urlencode", "q=\(query)"]
                + (epoch.map { ["--data-urlencode", "epoch=\($0)"] } ?? []))
        guard output.status == 0 else { throw TestFailure("query \(query): \(output.standardOutput) \(output.standardError)") }
        let answer = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
        let result = (answer?["results"] as? [[String: Any]])?.first
        if let error = result?["error"] as? String { throw TestFailure("query \(query): \(error)") }
        return ((result?["series"] as? [[String: Any]])?.first?["values"] as? [[Any]]) ?? []
    }

    /// How many points of `measurement` have a value of `field`.
    public func count(_ field: String, in measurement: String) throws -> Int {
        try query("SELECT count(\(field)) FROM \(measurement)").first?[1] as? Int ?? 0
    }
}
