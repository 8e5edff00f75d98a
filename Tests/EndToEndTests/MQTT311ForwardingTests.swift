import DBusTestSupport
import Foundation
import Testing

/// cuff-forward's fallback to MQTT 3.1.1 against a broker that speaks only 3.1.1: RabbitMQ 3.10's MQTT plugin, which
/// closes the connection on an MQTT 5 CONNECT without answering it (docs/reference/MQTT.md §2, docs/home-assistant.md).
@Suite(
    "cuff-forward → an MQTT 3.1.1 broker (RabbitMQ)",
    .enabled(if: RabbitMQBroker.available, "needs Debian's rabbitmq-server and mosquitto-clients (scripts/install-deps)"),
    .enabled(if: RabbitMQBroker.speaksOnlyMQTT311, "this RabbitMQ speaks MQTT 5 (3.13 and later, as Debian 13's): no 3.1.1-only broker to fall back against"))
struct MQTT311ForwardingTests {
    @Test("RabbitMQ 3.10 drops the MQTT 5 CONNECT unanswered: cuff-forward connects with MQTT 3.1.1 at its first attempt and says so; each reading arrives once; the status, the newest reading and the eleven configs are retained for subscriptions of their own topics, none for a wildcard; Home Assistant's online has the configs published again")
    func fallbackToMQTT311() async throws {
        try await withTeardown { teardown in
            let broker = try await offCooperativePool { try RabbitMQBroker() }
            teardown.add { broker.remove() }
            let forwarding = try await MQTTForwardingStack.make(scenario: "stored-records.json", broker: broker)
            try await forwarding.stack.startDaemon()
            #expect(try await forwarding.stack.cuffctl(["pair", MQTTForwardingTests.cuff]).status == 0)
            try forwarding.startForwarder()
            try await forwarding.waitForEveryReading()

            let log = forwarding.stack.text("forward.log")
            #expect(log.contains("connected to the MQTT broker mqtt://127.0.0.1:\(broker.port) (MQTT 3.1.1)"), "\(log)")
            #expect(!log.contains("unreachable"), "the first connection failed: \(log)")

            let readings = try await forwarding.stack.readings()
            let identifiers = forwarding.readingMessages().compactMap { $0.json["sync_identifier"] as? String }
            #expect(identifiers.count == readings.count && Set(identifiers).count == readings.count, "\(identifiers)")

            // Retained: what a subscriber of each exact topic is handed; a wildcard subscription is handed none.
            let seen = forwarding.seen()
            let state = try #require(seen.last { $0.topic.hasSuffix("/state") })
            let configTopics = Set(seen.filter { $0.topic.hasSuffix("/config") }.map(\.topic))
            #expect(configTopics.count == 11, "\(configTopics.sorted())")
            let topics = ["cuffd/status", state.topic] + configTopics.sorted()
            let retained = try await offCooperativePool { try forwarding.retained(topics) }
            #expect(retained.allSatisfy(\.retained) && retained.count == topics.count && Set(retained.map(\.topic)) == Set(topics), "\(retained.map(\.topic))")
            #expect(retained.contains { $0.topic == "cuffd/status" && $0.payload == "online" })
            #expect(retained.first { $0.topic == state.topic }?.payload == state.payload)
            #expect(try await offCooperativePool { try forwarding.retained() }.isEmpty)

            // Home Assistant's birth message, which its `homeassistant/#` subscription needs here: the configs come again.
            let configs = { forwarding.seen().filter { $0.topic.hasSuffix("/config") }.count }
            let before = configs()
            try forwarding.publishAsHomeAssistant("homeassistant/status", "online")
            try await forwarding.wait("the configs again") { _ in configs() >= before + 6 }

            // The MQTT 5 CONNECT: no CONNACK 1 (MQTT 3.1.1 §3.1.2.2) but a frame RabbitMQ cannot parse, and the connection
            // closed, as RabbitMQ logs it (its log reaches the file a little later).
            let unparsed = "MQTT cannot parse a frame"
            try await FolderWatch.wait("\"\(unparsed)\" in RabbitMQ's log", in: [broker.logFolder], detail: String(broker.log.suffix(3000))) {
                broker.log.contains(unparsed)
            }
        }
    }
}
