import BenchmarkSupport
import DBusTestSupport
import Foundation

/// cuff-sim and cuffd on a private bus (``Stack``), cuff-forward with only an `[HTTP]` sink, and the far side a real
/// server the test starts on 127.0.0.1: a webhook receiver (`Tests/Interop/webhook_receiver.py`, Python's http.server,
/// which checks each signature and answers as the test tells it) or an InfluxDB 1.x (``InfluxServer``, its data in the
/// stack's folder), read back with its `/query` API through curl.
final class HTTPForwardingStack: @unchecked Sendable {
    let stack: Stack
    private(set) var forwarder: ChildProcess?
    private var receiver: ChildProcess?
    private var influx: InfluxServer?

    var directory: URL { stack.directory }
    var configurationPath: String { path("forward.conf") }
    var keyPath: String { path("hmac.key") }
    var receiverKeyPath: String { path("receiver.key") }
    var answersPath: String { path("answers") }
    var receivedPath: String { path("received.jsonl") }
    var anchorPath: String { path("state/http/anchor") }
    var statusPath: String { path("state/http/status.json") }
    static let key = "a-shared-secret-of-the-test"

    static var receiverScript: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Interop/webhook_receiver.py").path
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// cuffd over `scenario` (on a store of `backlog` synthetic readings) on a private bus, started. Nobody presses
    /// START (`manualStart`): a paired cuff keeps its pairing link and measures nothing unasked, so the readings a test
    /// compares are those the pairing brought.
    static func make(scenario: String = "stored-records.json", backlog: Int = 0) async throws -> HTTPForwardingStack {
        let forwarding = HTTPForwardingStack(stack: try await Stack.make(scenario: scenario, manualStart: true))
        try FileManager.default.createDirectory(atPath: forwarding.path("state"), withIntermediateDirectories: false)
        if backlog > 0 { try makeStore(forwarding.stack.storePath, count: backlog) }
        try await forwarding.stack.startDaemon()
        return forwarding
    }

    private init(stack: Stack) { self.stack = stack }

    deinit {
        forwarder?.terminate()
        receiver?.terminate()
        stopInflux()
    }

    /// forward.conf with an `[HTTP]` section for `url`; `more` adds lines to it.
    func writeConfiguration(url: String, format: String, more: String = "") throws {
        try """
            [Forward]
            Gateway=ward3
            State=\(path("state/anchor"))

            [HTTP]
            URL=\(url)
            Format=\(format)
            \(more)
            """.write(toFile: configurationPath, atomically: false, encoding: .utf8)
    }

    func startForwarder(log: String = "forward.log") throws {
        let descriptor = try stack.logWriter(log)
        defer { close(descriptor) }
        forwarder = try ChildProcess(
            ForwardingStack.binary, ["--config", configurationPath, "--bus", stack.bus.address],
            standardOutput: .descriptor(descriptor), standardError: .descriptor(descriptor))
    }

    func stopForwarder() async throws {
        guard let forwarder else { return }
        forwarder.terminate()
        _ = try await offCooperativePool { forwarder.waitForExit() }
        self.forwarder = nil
    }

    // MARK: The webhook receiver

    /// Starts the receiver answering `answers` (``webhook_receiver.py``'s words), cuff-forward's key and the receiver's
    /// both ``key``; with `tls`, over HTTPS with its certificate for `localhost`. Returns the URL it listens at.
    func startReceiver(answers: String, tls: TestCertificates? = nil) async throws -> String {
        try setAnswers(answers)
        try (Self.key + "\n").write(toFile: keyPath, atomically: false, encoding: .utf8)
        try (Self.key + "\n").write(toFile: receiverKeyPath, atomically: false, encoding: .utf8)
        let descriptor = try stack.logWriter("receiver.log")
        defer { close(descriptor) }
        receiver = try ChildProcess(
            "/usr/bin/env", ["python3", Self.receiverScript, receiverKeyPath, answersPath, receivedPath] + (tls.map { [$0.certificate, $0.key] } ?? []),
            standardOutput: .descriptor(descriptor), standardError: .descriptor(descriptor))
        try await stack.wait(for: "listening ", in: "receiver.log")
        let port = stack.text("receiver.log").split(separator: "\n").first { $0.hasPrefix("listening ") }!.dropFirst("listening ".count)
        return tls == nil ? "http://127.0.0.1:\(port)/cuffd" : "https://localhost:\(port)/cuffd"
    }

    func setAnswers(_ answers: String) throws { try answers.write(toFile: answersPath, atomically: true, encoding: .utf8) }

    /// Every line the receiver accepted, parsed, in order.
    func received() -> [[String: Any]] {
        let text = (try? String(contentsOfFile: receivedPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The receiver's log lines `request N: …`.
    func requests() -> [String] { stack.text("receiver.log").split(separator: "\n").map(String.init).filter { $0.hasPrefix("request ") } }

    /// Waits until the receiver has accepted every reading of the gateway.
    func waitForEveryReadingReceived() async throws {
        let expected = Set(try await stack.readings().compactMap { $0["syncIdentifier"] as? String })
        try await stack.logged.wait(for: "every reading (\(expected.count)) received:\n\(stack.text("receiver.log"))\n\(stack.text("forward.log"))", within: testDeadline) { _ in
            expected.isSubset(of: Set(self.received().compactMap { $0["sync_identifier"] as? String })) ? () : nil
        }
    }

    // MARK: InfluxDB

    /// Starts InfluxDB (``InfluxServer``, its data in the stack's folder) the first time, and again after ``stopInflux()``.
    func startInflux() async throws {
        if let influx { return try await influx.start() }
        let folder = directory.appendingPathComponent("influxdb")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        influx = try await InfluxServer(in: folder)
    }

    func stopInflux() { influx?.stop() }

    var influxWriteURL: String { influx!.writeURL }

    func influxQuery(_ query: String) throws -> [[Any]] { try influx!.query(query) }

    /// Waits until InfluxDB holds as many distinct sync identifiers of `measurement` as `count`.
    func waitForInflux(_ measurement: String, count: Int) async throws {
        try await waitForInflux("SELECT count(DISTINCT(sync_identifier)) FROM \(measurement)") { ($0.first?[1] as? Int ?? 0) >= count }
    }

    /// Waits until the rows of `query` satisfy `condition`, looking again at each line cuff-forward logs (it logs each
    /// page it forwarded, after InfluxDB's answer).
    func waitForInflux(_ query: String, until condition: @escaping ([[Any]]) -> Bool) async throws {
        var seen: [[Any]] = []
        try await stack.logged.wait(for: "\(query) (seen \(seen)):\n\(stack.text("forward.log"))", within: testDeadline) { _ in
            seen = (try? self.influxQuery(query)) ?? []
            return condition(seen) ? () : nil
        }
    }
}
