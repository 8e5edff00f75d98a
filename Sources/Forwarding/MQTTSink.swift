import Foundation
import ForwardingStatus

/// An MQTT broker as a ``Sink``, for Home Assistant (docs/home-assistant.md): each page's messages published at QoS 1
/// (``MQTTPagePlan``) and acknowledged when the broker has sent PUBACK for every one — at least once, a duplicate
/// carrying the same sync identifier. On each connection: `online` on the availability topic (the will says
/// `offline`), every known user's discovery configs, and a subscription to Home Assistant's status topic, whose
/// `online` (Home Assistant started) has the configs published again.
final class MQTTSink: Sink {
    let name = "the MQTT broker"
    let waitingState = ForwardStatus.State.waitingForBroker
    private let settings: MQTTSettings
    private let topics: MQTTTopics
    private let published: PublishedUsers
    private let doorbell: Doorbell
    private let homeAssistantStarted = Flag()
    private var users: [CuffUser: PublishedUser]
    private var connection: MQTTConnection?

    /// `doorbell` is the forwarder's: Home Assistant's `online` rings it, so the configs go out without a new reading.
    init(settings: MQTTSettings, doorbell: Doorbell) throws(DurableFileError) {
        self.settings = settings
        topics = MQTTTopics(prefix: settings.topicPrefix, discoveryPrefix: settings.discoveryPrefix)
        published = PublishedUsers(path: (settings.statePath as NSString).deletingLastPathComponent + "/users.json")
        users = try published.read()
        self.doorbell = doorbell
    }

    func ready() async throws -> String? {
        if connection?.hasEnded == true { connection = nil }
        if let connection {
            if homeAssistantStarted.take() { try await publish(announcements(), on: connection) }
            return nil
        }
        let options = try MQTTConnection.Options(
            host: settings.host, port: settings.port, clientID: settings.clientID, user: settings.user,
            password: settings.passwordFile.map(PasswordFile.read), tls: settings.usesTLS, caFile: settings.caFile,
            will: MQTTConnection.Message(topic: topics.availability, payload: Array("offline".utf8), retain: true),
            subscriptions: [topics.homeAssistantStatus])
        let connection: MQTTConnection
        do {
            connection = try await MQTTConnection.open(
                options,
                received: { [homeAssistantStarted, doorbell, topics] topic, payload in
                    guard topic == topics.homeAssistantStatus, payload == Array("online".utf8) else { return }
                    homeAssistantStarted.set()
                    doorbell.ring()
                },
                // A session lost while idle is opened again at once, so that `online` and the configs are back as
                // soon as the broker is.
                ended: { [doorbell] in doorbell.ring() })
        } catch {
            throw SinkUnreachable(underlying: error)
        }
        try await publish([MQTTConnection.Message(topic: topics.availability, payload: Array("online".utf8), retain: true)] + announcements(), on: connection)
        self.connection = connection
        return "the MQTT broker \(settings.url) (\(connection.protocolName)\(settings.usesTLS ? ", TLS" : ""))"
    }

    func deliver(_ page: ChangePage) async throws {
        guard let connection else { throw SinkUnreachable(underlying: MQTTError.lost("not connected")) }
        let plan = MQTTPagePlan(page, users: users, topics: topics)
        try await publish(plan.messages, on: connection)
        try published.write(plan.users)
        users = plan.users
    }

    /// Every known user's discovery configs.
    private func announcements() -> [MQTTConnection.Message] {
        users.keys.sorted().flatMap { HomeAssistantDiscovery.configs(users[$0]!, topics: topics) }
    }

    /// Publishes and waits for every PUBACK; a failure drops the session, to be opened again after the backoff.
    private func publish(_ messages: [MQTTConnection.Message], on connection: MQTTConnection) async throws {
        do {
            try await connection.publish(messages)
        } catch {
            self.connection = nil
            throw SinkUnreachable(underlying: error)
        }
    }
}

/// A flag set on libmosquitto's thread and taken on the forwarder's.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }

    /// Whether it was set, clearing it.
    func take() -> Bool { lock.withLock { defer { value = false }; return value } }
}
