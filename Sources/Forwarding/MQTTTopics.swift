/// The topics the MQTT sink publishes to and listens on (docs/home-assistant.md, "Topics").
struct MQTTTopics: Sendable {
    /// `TopicPrefix=`, `cuffd` by default.
    let prefix: String
    /// `DiscoveryPrefix=`, `homeassistant` by default.
    let discoveryPrefix: String

    /// `PREFIX/status`: `online` (published on connect) or `offline` (the will), retained — the entities' availability.
    var availability: String { "\(prefix)/status" }
    /// `PREFIX/<cuff>/<user>/state`: the user's newest reading, retained.
    func state(_ user: CuffUser) -> String { "\(prefix)/\(user.cuff)/\(user.user)/state" }
    /// `PREFIX/<cuff>/<user>/history`: a reading older than the newest one published, not retained.
    func history(_ user: CuffUser) -> String { "\(prefix)/\(user.cuff)/\(user.user)/history" }
    /// `PREFIX/<cuff>/battery`: the cuff's battery (``CuffBattery``), retained; one for all its users.
    func battery(_ cuff: String) -> String { "\(prefix)/\(cuff)/battery" }
    /// Home Assistant's birth and last-will topic (MQTT integration, "Birth and last will messages"): `online` there
    /// asks for the discovery configs again.
    var homeAssistantStatus: String { "\(discoveryPrefix)/status" }
    /// `<discovery_prefix>/<component>/<node_id>/<object_id>/config` (Home Assistant MQTT integration, "Discovery topic").
    func config(_ component: String, _ user: CuffUser, _ object: String) -> String {
        "\(discoveryPrefix)/\(component)/\(user.node)/\(object)/config"
    }
}
