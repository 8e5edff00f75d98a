import ReadingColumns

/// The messages one page of the change feed becomes, in the feed's order (docs/home-assistant.md, "Topics"):
///
/// * a user seen for the first time, or whose cuff or person changed, is announced first (discovery configs);
/// * of each user's readings in the page, the newest not excluded on request goes to the retained state topic — if it
///   is no older than the newest already published there: Home Assistant stamps a state with its arrival time, so an older reading on the
///   state topic would show as new —, and every other one to the history topic;
/// * a reading of a cuff cuffd no longer remembers (``RememberedCuffs``: forgotten since it was stored) goes to the
///   history topic, after its user's removal (``HomeAssistantDiscovery/removal(_:topics:)``), once per page: the
///   entities may have been announced by a page whose acknowledgement a crash kept out of `users.json`, and a removal
///   of what is already gone changes nothing.
///
/// A deletion of the reading on a user's state topic (at its revision or a later one) — deleted, or replaced by a
/// revision, such as one excluding it — leaves the user ``orphaned``: the
/// sink asks cuffd for the user's newest remaining reading and hands it to ``fallBack(_:to:)``, which publishes it on
/// the state topic, or clears the retained state when none is left. Other deletions are not published: Home Assistant
/// has no way to take back a past state.
struct MQTTPagePlan {
    private(set) var messages: [MQTTConnection.Message] = []
    /// The users with what this page published; stored once the broker acknowledged it.
    private(set) var users: [CuffUser: PublishedUser]
    /// The users whose state this page deleted, for ``fallBack(_:to:)``.
    private(set) var orphaned: [CuffUser] = []

    init(_ page: ChangePage, users known: [CuffUser: PublishedUser], remembered: RememberedCuffs, topics: MQTTTopics, heartRateInterval: Int = 5) {
        users = known
        if page.kind == .heartRates {
            heartRates(page.heartRates, remembered: remembered, topics: topics, interval: Double(heartRateInterval))
            return
        }
        let keyed = page.readings.map { (reading: $0, key: CuffUser($0)) }
        var newestInPage: [CuffUser: ReadingRecord] = [:]
        // A reading excluded on request is never a state (docs/home-assistant.md, "Correcting readings").
        for (reading, key) in keyed where !reading.isExcluded && reading.time >= newestInPage[key]?.time ?? -.infinity {
            newestInPage[key] = reading
        }
        var removed: Set<CuffUser> = []
        for (reading, key) in keyed {
            let payload = ReadingMessage.payload(reading)
            guard remembered.remember(reading.device) else {
                if removed.insert(key).inserted { messages += HomeAssistantDiscovery.removal(key, topics: topics) }
                users[key] = nil
                messages.append(MQTTConnection.Message(topic: topics.history(key), payload: payload, retain: false))
                continue
            }
            var user = announced(key, device: reading.device, person: reading.person, topics: topics)
            if newestInPage[key] == reading, reading.time >= user.newest {
                user.newest = reading.time
                (user.state, user.stateVersion) = (reading.syncIdentifier, reading.syncVersion)
                messages.append(MQTTConnection.Message(topic: topics.state(key), payload: payload, retain: true))
            } else {
                messages.append(MQTTConnection.Message(topic: topics.history(key), payload: payload, retain: false))
            }
            users[key] = user
        }
        let deleted = Dictionary(page.deleted.map { ($0.syncIdentifier, $0.syncVersion) }, uniquingKeysWith: max)
        orphaned = users.values.filter { user in
            guard let state = user.state, let version = deleted[state] else { return false }
            return user.stateVersion ?? 0 <= version
        }.map(\.key).sorted()
    }

    /// Publishes `reading`, the newest cuffd still holds of the orphaned `user` (and counts), on its state topic — or clears the
    /// retained state (an empty retained message, MQTT 5 §3.3.1.3) when it holds none.
    mutating func fallBack(_ user: CuffUser, to reading: ReadingRecord?, topics: MQTTTopics) {
        guard var published = users[user] else { return }
        if let reading, CuffUser(reading) == user, !reading.isExcluded {
            messages.append(MQTTConnection.Message(topic: topics.state(user), payload: ReadingMessage.payload(reading), retain: true))
            (published.newest, published.state, published.stateVersion) = (reading.time, reading.syncIdentifier, reading.syncVersion)
        } else {
            messages.append(MQTTConnection.Message(topic: topics.state(user), payload: [], retain: true))
            // Any later reading goes to the state topic again; the lowest finite time, as JSON has no infinity.
            (published.newest, published.state, published.stateVersion) = (-.greatestFiniteMagnitude, nil, nil)
        }
        users[user] = published
    }

    /// A page of heart-rate samples: a sensor seen for the first time, or whose device or person changed, is announced;
    /// a sample goes to its sensor's retained state topic when it is at least `interval` seconds newer than the last
    /// one published there, or when its skin contact differs from that one's, and is otherwise left out — Home
    /// Assistant gets at most one heart rate every `interval` seconds of the sensor's, not one a second. Times are the
    /// samples' own, so a page sent again after a crash (before `users.json` recorded it) publishes the same samples. A forgotten sensor's samples publish nothing
    /// but its removal.
    private mutating func heartRates(_ samples: [HeartRateRecord], remembered: RememberedCuffs, topics: MQTTTopics, interval: Double) {
        var removed: Set<CuffUser> = []
        for sample in samples {
            let key = CuffUser(sample)
            guard remembered.remember(sample.device) else {
                if removed.insert(key).inserted { messages += HomeAssistantDiscovery.removal(key, topics: topics) }
                users[key] = nil
                continue
            }
            var user = announced(key, device: sample.device, person: sample.person, topics: topics)
            if sample.time >= user.newest + interval || (sample.time >= user.newest && sample.sensorContact != user.contact) {
                user.newest = sample.time
                user.contact = sample.sensorContact
                messages.append(MQTTConnection.Message(topic: topics.state(key), payload: HeartRateMessage.payload(sample), retain: true))
            }
            users[key] = user
        }
    }

    /// `key` as published, its configs announced first when it is new or its device or person changed.
    private mutating func announced(_ key: CuffUser, device: [String: String], person: String?, topics: MQTTTopics) -> PublishedUser {
        var user = users[key] ?? PublishedUser(cuff: key.cuff, user: key.user, person: nil, device: [:], newest: -.infinity)
        if users[key] == nil || user.device != device || user.person != person {
            user.device = device
            user.person = person
            messages += HomeAssistantDiscovery.configs(user, topics: topics)
        }
        return user
    }
}
