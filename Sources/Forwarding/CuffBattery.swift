/// A cuff's battery as cuffd's `org.cuffd.Cuff1` shows it (docs/dbus-api.md): Battery Level (0x2A19) in percent as read
/// at the cuff's last connection, nil when the cuff has no Battery Service, and whether its newest Omron record said
/// the batteries are low. Published per cuff on `PREFIX/<cuff>/battery` (docs/home-assistant.md, "Battery").
struct CuffBattery: Equatable, Sendable {
    var level: UInt8?
    var low: Bool

    /// The retained state: `{"level":80,"low":false}`, `null` for a level the cuff does not tell.
    var payload: [UInt8] {
        Array(JSONText.object(["level": level.map { String($0) } ?? "null", "low": JSONText.boolean(low)]).utf8)
    }
}
