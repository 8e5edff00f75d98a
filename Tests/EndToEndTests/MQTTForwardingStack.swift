import DBusTestSupport
import Foundation

/// cuff-sim and cuffd on a private bus (``Stack``), an MQTT broker of the test's own (``MQTTTestBroker``: a
/// ``MosquittoBroker``, or a ``RabbitMQBroker`` that speaks only MQTT 3.1.1), cuff-forward with only an `[MQTT]` sink,
/// and an independent subscriber — Mosquitto's own `mosquitto_sub`, with a persistent session at QoS 1, so that it
/// misses nothing across a broker restart — writing every message it sees to a file.
final class MQTTForwardingStack<Broker: MQTTTestBroker>: @unchecked Sendable {
    /// One message the subscriber saw.
    struct Seen: Equatable {
        let retained: Bool
        let topic: String
        let payload: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any] ?? [:] }

        /// mosquitto_sub's lines in the format `%r %t %p`: retained flag, topic, payload.
        static func lines(_ text: String) -> [Seen] {
            text.split(separator: "\n").compactMap { line in
                let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                return parts.count == 3 ? Seen(retained: parts[0] == "1", topic: String(parts[1]), payload: String(parts[2])) : nil
            }
        }
    }

    let stack: Stack
    let broker: Broker
    private(set) var forwarder: ChildProcess?
    private var subscriber: ChildProcess?

    var directory: URL { stack.directory }
    var configurationPath: String { directory.appendingPathComponent("forward.conf").path }
    var anchorPath: String { directory.appendingPathComponent("state/mqtt/anchor").path }
    var passwordPath: String { directory.appendingPathComponent("mqtt-password").path }
    private var messagesPath: String { directory.appendingPathComponent("messages.txt").path }

    static var binary: String { Stack.binaries.appendingPathComponent("cuff-forward").path }

    /// cuffd over `scenario` (with `edits`, as ``Stack/make(scenario:edits:policy:configuration:daemonArguments:manualStart:)``) on a private bus, forward.conf for `broker` at `mqtt://` (``writeConfiguration(password:url:caFile:clientCertificate:)``
    /// can change it before cuff-forward starts), and the subscriber. A cuff measures when the test presses START
    /// (``Stack/measure(_:_:as:)``), so nothing reaches the store unasked.
    static func make(scenario: String, edits: [String: String] = [:], broker: Broker) async throws -> MQTTForwardingStack {
        let forwarding = MQTTForwardingStack(stack: try await Stack.make(scenario: scenario, edits: edits, manualStart: true), broker: broker)
        try FileManager.default.createDirectory(at: forwarding.directory.appendingPathComponent("state"), withIntermediateDirectories: false)
        try forwarding.writeConfiguration(password: broker.password, url: "mqtt://\(broker.host):\(broker.port)", caFile: nil)
        try forwarding.startSubscriber()
        return forwarding
    }

    private init(stack: Stack, broker: Broker) {
        self.stack = stack
        self.broker = broker
    }

    deinit {
        forwarder?.terminate()
        // SIGKILL: mosquitto_sub's SIGTERM handler calls mosquitto_disconnect, which takes a lock of libmosquitto's that
        // the code it interrupted may hold (queueing a PUBACK), and then waits for good.
        if let subscriber {
            kill(subscriber.pid, SIGKILL)
            subscriber.waitForExit()
        }
    }

    /// forward.conf with an `[MQTT]` section for the broker at `url`; with `password`, the user and a password file;
    /// with `caFile`, the CA to trust; with `clientCertificate`, the certificate and key to present.
    func writeConfiguration(password: String?, url: String, caFile: String?, clientCertificate: (certificate: String, key: String)? = nil) throws {
        var text = """
            [Forward]
            Gateway=ward3
            State=\(directory.appendingPathComponent("state/anchor").path)

            [MQTT]
            URL=\(url)

            """
        if let caFile { text += "CAFile=\(caFile)\n" }
        if let clientCertificate { text += "CertificateFile=\(clientCertificate.certificate)\nKeyFile=\(clientCertificate.key)\n" }
        if let password {
            try (password + "\n").write(toFile: passwordPath, atomically: false, encoding: .utf8)
            text += "User=\(Broker.user)\nPasswordFile=\(passwordPath)\n"
        }
        try text.write(toFile: configurationPath, atomically: false, encoding: .utf8)
    }

    /// Starts `cuff-forward --config forward.conf` (as root, whom cuffd lets read), its stderr appended to `log`.
    func startForwarder(log: String = "forward.log") throws {
        let descriptor = try stack.logWriter(log)
        defer { close(descriptor) }
        forwarder = try ChildProcess(
            Self.binary, ["--config", configurationPath, "--bus", stack.bus.address], standardOutput: .descriptor(descriptor), standardError: .descriptor(descriptor))
    }

    /// SIGKILL: no chance to finish anything, nor to send DISCONNECT.
    func killForwarder() async throws {
        guard let forwarder else { return }
        kill(forwarder.pid, SIGKILL)
        _ = try await offCooperativePool { forwarder.waitForExit() }
    }

    private func startSubscriber() throws {
        let descriptor = try stack.logWriter("messages.txt")
        defer { close(descriptor) }
        subscriber = try ChildProcess(
            "mosquitto_sub",
            broker.clientOptions + ["-i", "checker", "-c", "-q", "1", "-t", "cuffd/#", "-t", "homeassistant/#", "-F", "%r %t %p"],
            standardOutput: .descriptor(descriptor))
    }

    /// Everything the subscriber has seen so far, in order.
    func seen() -> [Seen] {
        let text = (try? String(contentsOfFile: messagesPath, encoding: .utf8)) ?? ""
        return Seen.lines(text)
    }

    /// The readings seen on state and history topics, in order of arrival.
    func readingMessages() -> [Seen] { seen().filter { $0.topic.hasSuffix("/state") || $0.topic.hasSuffix("/history") } }

    /// cuff-forward's status file for this sink, beside its anchor.
    var statusPath: String { directory.appendingPathComponent("state/mqtt/status.json").path }

    /// Waits until `condition` holds for what the subscriber has seen, checked whenever a file changes in the stack's
    /// folder (the subscriber's messages.txt) or in the sink's state folder (users.json, the anchor).
    func wait(within timeout: Duration = testDeadline, _ what: String, until condition: ([Seen]) -> Bool) async throws {
        try await FolderWatch.wait(
            what, in: [directory.path, directory.appendingPathComponent("state/mqtt").path], within: timeout,
            detail: "\(seen().map { "\($0.topic) \($0.payload.prefix(120))" }.joined(separator: "\n"))\n\(stack.text("forward.log"))"
        ) { condition(seen()) }
    }

    /// Waits until every reading of the gateway has been seen on a state or history topic.
    func waitForEveryReading(within timeout: Duration = testDeadline) async throws {
        let expected = Set(try await stack.readings().compactMap { $0["syncIdentifier"] as? String })
        try await wait(within: timeout, "every reading (\(expected.count))") { seen in
            expected.isSubset(of: Set(seen.compactMap { $0.json["sync_identifier"] as? String }))
        }
    }

    /// Two topics of the test's own, outside what cuff-forward publishes and what the subscriber follows.
    static var bounds: [String] { ["cuffd-test/first", "cuffd-test/last"] }

    /// What a subscriber arriving now to `filters` is handed as retained: what comes between two retained messages of
    /// the test's own (``bounds``), subscribed before and after `filters` in the same SUBSCRIBE. A broker hands the
    /// retained messages of a SUBSCRIBE's filters one filter after the other — mosquitto 2.0 in their order, RabbitMQ
    /// 3.10 in the reverse one —, so once both have come, so have all of `filters`'. Ends, as `mosquitto_sub
    /// --retained-only` does, at the first message that is not retained.
    func retained(_ filters: [String] = ["cuffd/#", "homeassistant/#"]) throws -> [Seen] {
        for bound in Self.bounds { try publish(bound, "bound", retain: true) }
        let topics = [Self.bounds[0]] + filters + [Self.bounds[1]]
        let (child, output) = try ExternalCommand.start(
            "mosquitto_sub", broker.clientOptions + ["--retained-only", "-W", "60", "-F", "%r %t %p"] + topics.flatMap { ["-t", $0] })
        defer {
            kill(child.pid, SIGKILL)
            child.waitForExit()
        }
        var text = ""
        while Seen.lines(text).filter({ Self.bounds.contains($0.topic) }).count < 2 {
            let more = output.availableData
            guard !more.isEmpty else { throw TestFailure("mosquitto_sub ended before both retained \(Self.bounds): \(text)") }
            text += String(decoding: more, as: UTF8.self)
        }
        return Array(Seen.lines(text).drop { !Self.bounds.contains($0.topic) }.dropFirst().prefix { !Self.bounds.contains($0.topic) })
    }

    /// Publishes as Home Assistant would (its birth message on `homeassistant/status`).
    func publishAsHomeAssistant(_ topic: String, _ payload: String) throws { try publish(topic, payload) }

    private func publish(_ topic: String, _ payload: String, retain: Bool = false) throws {
        let result = try ExternalCommand.run("mosquitto_pub", broker.clientOptions + ["-t", topic, "-m", payload] + (retain ? ["-r"] : []))
        guard result.status == 0 else { throw TestFailure("mosquitto_pub: \(result.standardError)") }
    }

    /// `Tests/Interop/ha_discovery_check.py` on what the subscriber saw: each config as Home Assistant reads it.
    func discoveryCheck() throws -> [String: [String: Any]] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Interop/ha_discovery_check.py").path
        let result = try ExternalCommand.run("python3", [script, messagesPath, "homeassistant"])
        guard result.status == 0 else { throw TestFailure("ha_discovery_check.py: \(result.standardError)") }
        return try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: [String: Any]] ?? [:]
    }
}

extension MQTTForwardingStack where Broker == MosquittoBroker {
    /// With a Mosquitto of the test's own: with `password`, a password file; with `tls`, `mqtts://` and its CA; with
    /// `requireCertificate` (and `tls`), the broker requires a client certificate, and cuff-forward presents one; with
    /// `acl`, the broker enforces that ACL file's text.
    static func make(
        scenario: String, edits: [String: String] = [:], password: String? = nil, tls: Bool = false, requireCertificate: Bool = false, acl: String? = nil
    ) async throws -> MQTTForwardingStack {
        let broker = try await offCooperativePool { try MosquittoBroker(password: password, tls: tls, requireCertificate: requireCertificate, acl: acl) }
        let forwarding = try await make(scenario: scenario, edits: edits, broker: broker)
        if let certificates = broker.certificates {
            try forwarding.writeConfiguration(
                password: password, url: "mqtts://\(broker.host):\(broker.port)", caFile: certificates.authority,
                clientCertificate: try await offCooperativePool { requireCertificate ? try certificates.client("cuff-forward") : nil })
        }
        return forwarding
    }
}
