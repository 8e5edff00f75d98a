import DurableFiles
import ForwardingStatus
import FoundationEssentials
import Synchronization

/// An MQTT broker as a ``Sink``, for Home Assistant (docs/home-assistant.md): each page's messages published at QoS 1
/// (``MQTTPagePlan``) and acknowledged when the broker has sent PUBACK for every one — at least once, a duplicate
/// carrying the same sync identifier. On each connection: `online` on the availability topic (the will says
/// `offline`), every known user's discovery configs, and a subscription to Home Assistant's status topic, whose
/// `online` (Home Assistant started) has the configs published again. Before each page, the users of a cuff cuffd no
/// longer remembers (``RememberedCuffs``: `cuffctl forget`, while cuff-forward ran or not) are removed from Home
/// Assistant and from `users.json`.
final class MQTTSink: Sink {
    let name = "the MQTT broker"
    let waitingState = ForwardStatus.State.waitingForBroker
    private let settings: MQTTSettings
    private let topics: MQTTTopics
    private let published: PublishedUsers
    private let feed: CuffdFeed
    private let log: ForwardLog
    private let doorbell: Doorbell
    private let homeAssistantStarted = Flag()
    private var users: [CuffUser: PublishedUser]
    /// Users `users.json` names otherwise than this version does (``PublishedUsers/renamed(_:)``), until their old
    /// entities are removed.
    private var renamed: [(from: CuffUser, to: CuffUser)]
    private var remembered = RememberedCuffs(addresses: nil)
    /// Each cuff's battery as cuffd showed it at the last ``ready()``, and as last published, by address; the latter
    /// emptied with each new session, so that a new session publishes them again.
    private var batteries: [String: CuffBattery] = [:]
    private var publishedBatteries: [String: CuffBattery] = [:]
    private var connection: MQTTConnection?

    /// `feed` says which cuffs cuffd remembers; `doorbell` is the forwarder's: Home Assistant's `online` rings it, so
    /// the configs go out without a new reading.
    init(settings: MQTTSettings, feed: CuffdFeed, log: ForwardLog, doorbell: Doorbell) throws(DurableFileError) {
        self.settings = settings
        topics = MQTTTopics(prefix: settings.topicPrefix, discoveryPrefix: settings.discoveryPrefix)
        published = PublishedUsers(path: parentFolder(of: settings.statePath) + "/users.json")
        (users, renamed) = PublishedUsers.renamed(try published.read())
        self.feed = feed
        self.log = log
        self.doorbell = doorbell
    }

    func ready() async throws -> String? {
        remembered = try await feed.rememberedCuffs()
        let forgotten = users.values.filter { !remembered.remember($0.device) }.map(\.key).sorted()
        let kept = users.filter { !forgotten.contains($0.key) }
        var messages = (renamed.map(\.from) + forgotten).flatMap { HomeAssistantDiscovery.removal($0, topics: topics) }
        if connection?.hasEnded == true { connection = nil }
        var connected: String?
        batteries = try await feed.batteries()
        if connection == nil {
            publishedBatteries = [:]
            connection = try await open()
            messages = [MQTTConnection.Message(topic: topics.availability, payload: Array("online".utf8), retain: true)] + messages
                + announcements(kept)
            connected = "the MQTT broker \(settings.url) (\(connection!.protocolName)\(settings.usesTLS ? ", TLS" : ""))"
        } else if homeAssistantStarted.take() {
            messages += announcements(kept)
        }
        let battery = batteryMessages(kept)
        try await publish(messages + battery.messages)
        publishedBatteries = battery.published
        if !forgotten.isEmpty || !renamed.isEmpty {
            try published.write(kept)
            users = kept
            for user in forgotten {
                log.log(.info, "removed \(user.node) from Home Assistant: cuffd no longer remembers its cuff (cuffctl forget)")
            }
            for (from, to) in renamed {
                log.log(.info, "renamed \(from.node) to \(to.node) in Home Assistant: its name is escaped now (docs/home-assistant.md, \"Topics\")")
            }
            renamed = []
        }
        return connected
    }

    /// Every gateway publishes under topics of its own: no reading is ever another's.
    func deliver(_ page: ChangePage) async throws -> Int {
        guard connection != nil else { throw SinkUnreachable(underlying: MQTTError.lost("not connected")) }
        var plan = MQTTPagePlan(page, users: users, remembered: remembered, topics: topics, heartRateInterval: settings.heartRateInterval)
        for user in plan.orphaned {
            plan.fallBack(user, to: try await feed.newestReading(of: plan.users[user]!), topics: topics)
        }
        // A cuff announced by this page has its battery published with it, first: by the time its entities are
        // announced, their state is there.
        let battery = batteryMessages(plan.users)
        try await publish(battery.messages + plan.messages)
        publishedBatteries = battery.published
        try published.write(plan.users)
        users = plan.users
        return 0
    }

    /// A new session, its will `offline` on the availability topic, subscribed to Home Assistant's status.
    private func open() async throws -> MQTTConnection {
        let options = try MQTTConnection.Options(
            host: settings.host, port: settings.port, clientID: settings.clientID, user: settings.user,
            password: settings.passwordFile?.read(), tls: settings.usesTLS, caFile: settings.caFile,
            clientCertificate: settings.clientCertificate,
            will: MQTTConnection.Message(topic: topics.availability, payload: Array("offline".utf8), retain: true),
            subscriptions: [topics.homeAssistantStatus])
        do {
            return try await MQTTConnection.open(
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
    }

    /// The battery of each cuff of `users` (not a strap's) that cuffd shows and that differs from what was published,
    /// as retained messages on the cuff's battery topic, and what is published once they are acknowledged: only the
    /// cuffs of `users`, so that a cuff removed (and its battery topic emptied) has it published again when it returns.
    private func batteryMessages(_ users: [CuffUser: PublishedUser]) -> (messages: [MQTTConnection.Message], published: [String: CuffBattery]) {
        let addresses = Set(users.values.compactMap { $0.key.isStrap ? nil : $0.device["address"] })
        var published = publishedBatteries.filter { addresses.contains($0.key) }
        var messages: [MQTTConnection.Message] = []
        for user in users.values.sorted(by: { $0.key < $1.key }) where !user.key.isStrap {
            guard let address = user.device["address"], let battery = batteries[address], published[address] != battery else { continue }
            published[address] = battery
            messages.append(MQTTConnection.Message(topic: topics.battery(user.cuff), payload: battery.payload, retain: true))
        }
        return (messages, published)
    }

    /// The discovery configs of `users`.
    private func announcements(_ users: [CuffUser: PublishedUser]) -> [MQTTConnection.Message] {
        users.keys.sorted().flatMap { HomeAssistantDiscovery.configs(users[$0]!, topics: topics) }
    }

    /// Publishes and waits for every PUBACK; a failure drops the session, to be opened again after the backoff.
    private func publish(_ messages: [MQTTConnection.Message]) async throws {
        guard let connection, !messages.isEmpty else { return }
        do {
            try await connection.publish(messages)
        } catch {
            self.connection = nil
            throw SinkUnreachable(underlying: error)
        }
    }
}

/// A flag set on libmosquitto's thread and taken on the forwarder's.
private final class Flag: Sendable {
    private let value = Atomic(false)

    func set() { value.store(true, ordering: .releasing) }

    /// Whether it was set, clearing it.
    func take() -> Bool { value.exchange(false, ordering: .acquiringAndReleasing) }
}
