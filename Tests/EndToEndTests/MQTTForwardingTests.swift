import DBusTestSupport
import Foundation
import Testing

/// cuff-forward's MQTT sink against a real Mosquitto, checked by an independent subscriber (docs/home-assistant.md).
@Suite(
    "cuff-forward → MQTT (Home Assistant)", .serialized,
    .enabled(if: MosquittoBroker.available, "needs Debian's mosquitto and mosquitto-clients (scripts/install-deps)"))
struct MQTTForwardingTests {
    static let cuff = "E8:2A:44:10:3C:5D"

    /// The broker, cuffd with cuff-sim, the subscriber; cuffd started and the cuff paired, so its records are stored.
    /// `edits` change stored-records.json.
    static func paired(
        _ teardown: Teardown, edits: [String: String] = [:], password: String? = nil, tls: Bool = false, requireCertificate: Bool = false,
        acl: String? = nil
    ) async throws -> MQTTForwardingStack<MosquittoBroker> {
        let forwarding = try await MQTTForwardingStack<MosquittoBroker>.make(
            scenario: "stored-records.json", edits: edits, password: password, tls: tls, requireCertificate: requireCertificate, acl: acl)
        teardown.add { forwarding.broker.remove() }
        try await forwarding.stack.startDaemon()
        #expect(try await forwarding.stack.cuffctl(["pair", Self.cuff]).status == 0)
        return forwarding
    }

    /// ``paired(_:edits:password:tls:requireCertificate:acl:)``, and cuff-forward started and caught up: every reading seen by the subscriber.
    static func caughtUp(_ teardown: Teardown, edits: [String: String] = [:]) async throws -> MQTTForwardingStack<MosquittoBroker> {
        let forwarding = try await paired(teardown, edits: edits)
        try forwarding.startForwarder()
        try await forwarding.waitForEveryReading()
        return forwarding
    }

    @Test("Each reading arrives once; the newest per user is the retained state (nothing else of the readings is retained) with the right values; the discovery configs are Home Assistant's and resolve against it; Home Assistant's online has them published again")
    func discoveryAndState() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.caughtUp(teardown)
            let readings = try await forwarding.stack.readings()
            let seen = forwarding.readingMessages()
            let identifiers = seen.compactMap { $0.json["sync_identifier"] as? String }
            #expect(identifiers.count == readings.count && Set(identifiers).count == readings.count, "\(identifiers)")

            // The state topic carries the newest reading, retained; the older ones went to history.
            // `time` as cuffctl --json writes it: ISO 8601 with the offset.
            func time(_ text: Any?) -> Date { (text as? String).flatMap { ISO8601DateFormatter().date(from: $0) } ?? .distantPast }
            let newest = try #require(readings.max { time($0["time"]) < time($1["time"]) })
            let states = seen.filter { $0.topic.hasSuffix("/state") }
            let state = try #require(states.last).json
            #expect(state["sync_identifier"] as? String == newest["syncIdentifier"] as? String)
            #expect(state["systolic"] as? Double == newest["systolic"] as? Double && state["diastolic"] as? Double == newest["diastolic"] as? Double)
            #expect(state["pulse"] as? Double == newest["pulseRate"] as? Double)
            #expect(time(state["measured_at"]) == time(newest["time"]) && time(newest["time"]) != .distantPast, "\(state)")
            #expect(seen.filter { $0.topic.hasSuffix("/history") }.count == readings.count - states.count)

            // The cuff's battery, read by cuffd at the connection and shown on its Cuff1 object, once cuffd has.
            try await forwarding.wait("the cuff's battery level") { seen in
                seen.contains { $0.topic == "cuffd/0003/battery" && $0.json["level"] as? Int == 100 && $0.json["low"] as? Bool == false }
            }
            // Every config parses, uses only documented keys, and its templates render against the real state message.
            let entities = try forwarding.discoveryCheck()
            #expect(entities.count == 11, "\(entities.keys.sorted())")
            let status = state["status"] as? [String: Any] ?? [:]
            func flag(_ key: String) -> String { status[key] as? Bool == true ? "ON" : "OFF" }
            for (uniqueID, entity) in entities {
                let rendered = try #require(entity["state"] as? String)
                let expected: String? =
                    switch uniqueID.split(separator: "_").last.map(String.init) {
                    case "systolic": (newest["systolic"] as? Double).map { "\($0)" }
                    case "diastolic": (newest["diastolic"] as? Double).map { "\($0)" }
                    case "pulse" where !uniqueID.hasSuffix("irregular_pulse"): (newest["pulseRate"] as? Double).map { "\($0)" }
                    case "pulse": "OFF"
                    case "measured": state["measured_at"] as? String
                    case "movement": flag("body_movement")
                    case "loose": flag("cuff_fit_loose")
                    case "battery": "100.0"  // cuff-sim's Battery Level (0x2A19), read by cuffd at the connection
                    case "low": "OFF"
                    case "category": (newest["systolic"] as? Double ?? 0) >= 135 || (newest["diastolic"] as? Double ?? 0) >= 85 ? "at_or_above_135_85" : "below_135_85"
                    default: nil
                    }
                if let expected { #expect(Double(rendered).map { "\($0)" } ?? rendered == expected, "\(uniqueID): \(rendered)") }
                if !uniqueID.contains("battery") {
                    #expect((entity["attributes"] as? [String: Any])?["irregular_pulse"] as? Bool == false, "\(uniqueID)")
                }
                let config = try #require(entity["config"] as? [String: Any])
                #expect(config["availability_topic"] as? String == "cuffd/status")
                // The cuff's Firmware Revision String (0x2A26), from its Device Information through the store and the feed.
                #expect((config["device"] as? [String: Any])?["sw_version"] as? String == "1.4.2", "\(uniqueID)")
            }
            #expect(forwarding.seen().contains { $0.topic == "cuffd/status" && $0.payload == "online" })

            // Retained, for a Home Assistant that subscribes later: the status, the state (the newest reading) and the nine
            // configs; never a history message.
            let retained = try await offCooperativePool { try forwarding.retained() }
            #expect(retained.allSatisfy(\.retained) && retained.count == 14, "\(retained.map(\.topic))")
            #expect(retained.contains { $0.topic == "cuffd/status" && $0.payload == "online" })
            #expect(retained.filter { $0.topic.hasSuffix("/state") }.map { $0.json["sync_identifier"] as? String } == [state["sync_identifier"] as? String])
            #expect(!retained.contains { $0.topic.hasSuffix("/history") })

            // Home Assistant's birth message: the configs come again, retained.
            let configs = { forwarding.seen().filter { $0.topic.hasSuffix("/config") }.count }
            let before = configs()
            try forwarding.publishAsHomeAssistant("homeassistant/status", "online")
            try await forwarding.wait("the configs again") { _ in configs() >= before + 6 }
        }
    }

    @Test("The broker stopped and started again: readings stored meanwhile arrive, in order, none lost; the outage logged once; idle afterwards, nothing wakes it")
    func brokerOutage() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.caughtUp(teardown)
            try await offCooperativePool { forwarding.broker.stop() }
            #expect(try await forwarding.stack.measure(Self.cuff).status == 0)
            try await forwarding.stack.wait(for: "the MQTT broker is unreachable", in: "forward.log")
            // Another attempt while the broker is down, for the outage to be logged once over several.
            try await forwarding.stack.waitUntilRetried(status: forwarding.statusPath)
            try await offCooperativePool { try forwarding.broker.start() }
            try await forwarding.waitForEveryReading()
            let readings = try await forwarding.stack.readings()
            let arrived = forwarding.readingMessages().compactMap { $0.json["sync_identifier"] as? String }
            var firstArrivals: [String] = []
            for identifier in arrived where !firstArrivals.contains(identifier) { firstArrivals.append(identifier) }
            #expect(firstArrivals == readings.compactMap { $0["syncIdentifier"] as? String }, "\(arrived)")
            let log = forwarding.stack.text("forward.log")
            #expect(log.components(separatedBy: "the MQTT broker is unreachable").count == 2, "\(log)")

            // Caught up and connected again, nothing of it runs for three seconds: libmosquitto's thread waits for the
            // socket or the keep-alive (60 s), the forwarding loop for cuffd's signal.
            let idle = try await ThreadSwitches.wokenWhileIdle(try #require(forwarding.forwarder?.pid))
            #expect(idle.woken == [:], "\(idle.names)")
        }
    }

    @Test("cuff-forward SIGKILLed between PUBLISH and PUBACK: the anchor has not moved, the will says offline, and started again it says online and the reading arrives, any duplicate with the same sync identifier")
    func killedBeforeAcknowledgement() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.paired(teardown)
            // cuff-forward reaches the broker through a relay, which holds what it sends once told to: a broker that
            // takes the PUBLISH and answers nothing.
            let relay = try HoldingRelay(to: forwarding.broker.port)
            try forwarding.writeConfiguration(password: nil, url: "mqtt://127.0.0.1:\(relay.port)", caFile: nil)
            try forwarding.startForwarder()
            try await forwarding.waitForEveryReading()
            // The anchor is stored once the broker acknowledged the page, which the subscriber may see before; the
            // status after it.
            try await forwarding.stack.waitForForwardStatus(forwarding.statusPath, "caught up") { $0["lagReadings"] as? Int == 0 }
            let anchor = try String(contentsOfFile: forwarding.anchorPath, encoding: .utf8)
            let before = Set(try await forwarding.stack.readings().compactMap { $0["syncIdentifier"] as? String })

            relay.hold()
            #expect(try await forwarding.stack.measure(Self.cuff).status == 0)
            let fresh = try #require(try await forwarding.stack.readings().compactMap { $0["syncIdentifier"] as? String }.first { !before.contains($0) })
            // cuff-forward has sent the fresh reading's PUBLISH, which no PUBACK answers.
            try await relay.waitUntilHeld()
            #expect(try String(contentsOfFile: forwarding.anchorPath, encoding: .utf8) == anchor, "the anchor moved before PUBACK")
            try await forwarding.killForwarder()
            // The session ended without DISCONNECT: the broker publishes the will, and the entities are unavailable.
            try await forwarding.wait("the will, offline") { $0.last { $0.topic == "cuffd/status" }?.payload == "offline" }

            try forwarding.writeConfiguration(password: nil, url: "mqtt://127.0.0.1:\(forwarding.broker.port)", caFile: nil)
            try forwarding.startForwarder(log: "forward-again.log")
            try await forwarding.waitForEveryReading()
            // The new session announces itself; the subscriber may see it after the readings it already printed.
            try await forwarding.wait("online again") { $0.last { $0.topic == "cuffd/status" }?.payload == "online" }
            let deliveries = forwarding.readingMessages().filter { $0.json["sync_identifier"] as? String == fresh }
            #expect(!deliveries.isEmpty)
            #expect(Set(deliveries.map(\.payload)).count == 1, "a duplicate differs: \(deliveries.map(\.payload))")
            // Acknowledged this time: the anchor moves past the fresh reading.
            try await forwarding.stack.waitForForwardStatus(forwarding.statusPath, "caught up again") { $0["lagReadings"] as? Int == 0 }
            #expect(try String(contentsOfFile: forwarding.anchorPath, encoding: .utf8) != anchor)
        }
    }

    @Test("A wrong password: the broker's refusal in the log once and in the status file, retried with backoff; the right one read from the file at the next attempt")
    func wrongPassword() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.paired(teardown, password: "right-secret")
            try "wrong-secret\n".write(toFile: forwarding.passwordPath, atomically: false, encoding: .utf8)
            try forwarding.startForwarder()
            try await forwarding.stack.wait(for: "the broker refused the connection", in: "forward.log")
            // Retried with backoff: three refused attempts, at least the first wait (0.5 s) apart as cuff-forward's own
            // clock tells (the status keeps milliseconds) — never one per 100 ms —, each seen by the broker, and logged once.
            let attempts = try await forwarding.stack.failedAttempts(3, status: forwarding.statusPath)
            #expect(zip(attempts, attempts.dropFirst()).allSatisfy { $1 - $0 >= 0.499 }, "\(attempts)")
            let refusals = forwarding.broker.log.components(separatedBy: "not authorised").count - 1
            #expect(refusals >= 3, "\(refusals) refused logins")
            let log = forwarding.stack.text("forward.log")
            #expect(log.contains("Bad user name or password") || log.contains("Not authorized"), "\(log)")
            #expect(log.components(separatedBy: "the MQTT broker is unreachable").count == 2, "logged once: \(log)")
            let status = try await forwarding.stack.forwardStatus(forwarding.statusPath)
            #expect(status["state"] as? String == "waiting for the MQTT broker", "\(status)")
            #expect((status["lastError"] as? String)?.contains("refused") == true, "\(status)")

            try "right-secret\n".write(toFile: forwarding.passwordPath, atomically: false, encoding: .utf8)
            try await forwarding.waitForEveryReading()
        }
    }

    @Test("Messages the broker's ACL refuses: the refusal in the log once and in the status file, the anchor unmoved, retried with backoff; the ACL mended and reloaded, every reading arrives")
    func refusedByACL() async throws {
        try await withTeardown { teardown in
            let user = "user \(MosquittoBroker.user)\n"
            let forwarding = try await Self.paired(teardown, password: "acl-secret", acl: user + "topic read #\n")
            try forwarding.startForwarder()
            try await forwarding.stack.wait(for: "the broker refused a message", in: "forward.log")
            // Retried: two more refusals, for the refusal to be logged once over several.
            let attempts = try await forwarding.stack.failedAttempts(3, status: forwarding.statusPath)
            #expect(zip(attempts, attempts.dropFirst()).allSatisfy { $1 - $0 >= 0.499 }, "\(attempts)")
            let log = forwarding.stack.text("forward.log")
            #expect(log.contains("Not authorized"), "\(log)")
            #expect(log.components(separatedBy: "the broker refused a message").count == 2, "logged once: \(log)")
            #expect(!FileManager.default.fileExists(atPath: forwarding.anchorPath), "the anchor moved past refused messages")
            let status = try await forwarding.stack.forwardStatus(forwarding.statusPath)
            #expect(status["state"] as? String == "waiting for the MQTT broker", "\(status)")
            #expect((status["lastError"] as? String)?.contains("Not authorized") == true, "\(status)")

            try await offCooperativePool { try forwarding.broker.setACL(user + "topic readwrite #\n") }
            try await forwarding.waitForEveryReading()
        }
    }

    @Test("mqtts with the test CA's certificate for localhost: every reading, over TLS; asked for 127.0.0.1 or trusting another CA: refused, never connected, nothing published")
    func verifiedTLS() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.paired(teardown, tls: true)
            let broker = forwarding.broker
            let certificates = try #require(broker.certificates)
            let stranger = try await offCooperativePool { try TestCertificates(in: forwarding.directory, name: "stranger") }
            let refusals = [
                ("127.0.0.1", certificates.authority, "host name verification failed"),
                ("localhost", stranger.authority, "certificate verify failed"),
            ]
            // A handshake the client gives up, as the broker logs it.
            let refusedHandshakes = { broker.log.components(separatedBy: "Client <unknown> disconnected").count - 1 }
            for (index, (host, authority, reason)) in refusals.enumerated() {
                try forwarding.writeConfiguration(password: nil, url: "mqtts://\(host):\(broker.port)", caFile: authority)
                let before = refusedHandshakes()
                try forwarding.startForwarder(log: "refused-\(index).log")
                // Refused: never connected, nothing published. OpenSSL's reason is logged when libmosquitto's thread
                // reports the failed handshake; at times it reports nothing and only the keep-alive-long wait for CONNACK
                // ends the attempt (docs/home-assistant.md, "Not yet done, and known issues"), so the reason is not waited
                // for here, but the broker's end of the attempt: the client sent its TLS alert and closed.
                try await FolderWatch.wait("the broker's end of a refused handshake", in: [broker.directory.path], detail: broker.log) {
                    refusedHandshakes() > before
                }
                let log = forwarding.stack.text("refused-\(index).log")
                #expect(!log.contains("connected to the MQTT broker"), "\(reason): \(log)")
                try await forwarding.killForwarder()
            }
            #expect(forwarding.readingMessages().isEmpty && !forwarding.seen().contains { $0.topic == "cuffd/status" })

            try forwarding.writeConfiguration(password: nil, url: "mqtts://localhost:\(broker.port)", caFile: certificates.authority)
            try forwarding.startForwarder()
            try await forwarding.waitForEveryReading()
            try await forwarding.stack.wait(for: "connected to the MQTT broker mqtts://localhost:\(broker.port) (MQTT 5, TLS)", in: "forward.log")
        }
    }
}
