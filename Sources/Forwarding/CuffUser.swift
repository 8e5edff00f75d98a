import ReadingColumns

/// One user of one cuff: what Home Assistant sees as a device, with a state topic of its own
/// (docs/home-assistant.md, "Topics"). Named by the cuff's serial number, else its Bluetooth address, and the User ID
/// the cuff sent with the reading (Blood Pressure Measurement, GATT Specification Supplement §3.31) — not by the
/// person a user is mapped to, so that a renamed person keeps their history and entities.
struct CuffUser: Hashable, Sendable, Comparable {
    /// The serial number or address, each character outside `[A-Za-z0-9_-]` as `_`, so that it serves as a topic level
    /// and in Home Assistant's `node_id` and `unique_id`, which allow only those characters.
    let cuff: String
    /// `user1`, `user2` …; `user` when the cuff sent no User ID.
    let user: String

    init(cuff: String, user: String) {
        self.cuff = cuff
        self.user = user
    }

    init(_ reading: ReadingRecord) {
        let name = reading.device["serial"].flatMap { $0.isEmpty ? nil : $0 } ?? reading.device["address"] ?? "unknown"
        cuff = String(name.unicodeScalars.map { scalar in
            ("0"..."9").contains(scalar) || ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || scalar == "-" || scalar == "_"
                ? Character(scalar) : "_"
        })
        user = reading.userID.map { "user\($0)" } ?? "user"
    }

    /// `cuffd_<cuff>_<user>`: Home Assistant's node_id for the user's entities, and the prefix of their unique_ids.
    var node: String { "cuffd_\(cuff)_\(user)" }

    static func < (left: CuffUser, right: CuffUser) -> Bool { (left.cuff, left.user) < (right.cuff, right.user) }
}
