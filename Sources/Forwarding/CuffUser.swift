import ReadingColumns

/// One user of one cuff, or one heart-rate sensor: what Home Assistant sees as a device, with a state topic of its own
/// (docs/home-assistant.md, "Topics"). Named by the cuff's serial number, else its Bluetooth address, and the User ID
/// the cuff sent with the reading (Blood Pressure Measurement, GATT Specification Supplement §3.31) — not by the
/// person a user is mapped to, so that a renamed person keeps their history and entities.
struct CuffUser: Hashable, Sendable, Comparable {
    /// The serial number or address as a topic level and a part of Home Assistant's ids (``CuffName``).
    let cuff: String
    /// `user1`, `user2` …; `user` when the cuff sent no User ID.
    let user: String

    init(cuff: String, user: String) {
        self.cuff = cuff
        self.user = user
    }

    init(_ reading: ReadingRecord) {
        cuff = CuffName.of(reading.device)
        user = reading.userID.map { "user\($0)" } ?? "user"
    }

    /// A heart-rate sensor, which names no user (0x2A37): one device in Home Assistant per sensor, under the level
    /// ``strapLevel``.
    init(_ sample: HeartRateRecord) {
        cuff = CuffName.of(sample.device)
        user = Self.strapLevel
    }

    /// The user level of a heart-rate sensor: `heart_rate`, which no cuff user's `user…` can be.
    static let strapLevel = "heart_rate"

    /// Whether this is a heart-rate sensor rather than a cuff's user.
    var isStrap: Bool { user == Self.strapLevel }

    /// `cuffd_<cuff>_<user>`: Home Assistant's node_id for the user's entities, and the prefix of their unique_ids.
    var node: String { "cuffd_\(cuff)_\(user)" }

    static func < (left: CuffUser, right: CuffUser) -> Bool { (left.cuff, left.user) < (right.cuff, right.user) }
}
