/// The cuffs cuffd remembers (`RememberedCuffs`, docs/dbus-api.md): each identified on a bond and not forgotten since.
/// The MQTT sink shows only these in Home Assistant (docs/home-assistant.md, "Forgetting a cuff"): a cuff forgotten
/// with `cuffctl forget` has its entities removed, and a reading of it stored before the forget, forwarded late, goes
/// to the history topic without bringing them back.
struct RememberedCuffs: Sendable {
    /// Bluetooth addresses as cuffd writes them (`C4:F3:12:53:F2:C9`); nil when cuffd does not say (a cuffd older than
    /// the property): then every cuff counts as remembered, and nothing is removed.
    let addresses: Set<String>?

    /// Whether the cuff a reading's `device` names is remembered; a device without an address cannot be told apart and
    /// counts as remembered.
    func remember(_ device: [String: String]) -> Bool {
        guard let addresses, let address = device["address"] else { return true }
        return addresses.contains(address)
    }
}
