import DurableFiles
import FoundationEssentials

/// One cuff user the MQTT sink has published, as it last described them to Home Assistant.
struct PublishedUser: Codable, Equatable, Sendable {
    var cuff: String
    var user: String
    /// The person the user is mapped to in cuffd, if any: the device's name in Home Assistant.
    var person: String?
    /// The cuff's `address`, `name`, `manufacturer`, `model`, `serial`, `firmware` (Device Information, as cuffd's feed
    /// has them).
    var device: [String: String]
    /// Unix seconds of the newest reading (or heart-rate sample) published on the user's state topic.
    var newest: Double
    /// The sync identifier and revision of the reading on the state topic (absent in a `users.json` written before
    /// readings could be deleted on request): its deletion has the user's newest remaining reading published there.
    var state: String?
    var stateVersion: Int64?
    /// A heart-rate sensor's skin contact in the newest sample published: a change is published at once, whatever
    /// `HeartRateInterval=`. Nil for a cuff's user.
    var contact: String? = nil

    var key: CuffUser { CuffUser(cuff: cuff, user: user) }
}

/// The MQTT sink's durable memory, `users.json` beside its anchor: which users it announced to Home Assistant (so that
/// their discovery configs can be published again at any time) and each one's newest reading on the state topic (so
/// that an older reading arriving late, even after a restart, goes to the history topic). Written after the broker
/// acknowledged a page and before its anchor (``DurableFile``): a crash in between replays the page, whose newest
/// readings are then no older than what the file says, and so go to the state topic again.
struct PublishedUsers: Sendable {
    private let file: DurableFile

    init(path: String) {
        file = DurableFile(path: path, mode: 0o600)
    }

    func read() throws(DurableFileError) -> [CuffUser: PublishedUser] {
        guard let data = try file.read() else { return [:] }
        do {
            let users = try JSONDecoder().decode([PublishedUser].self, from: Data(data))
            return Dictionary(users.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        } catch {
            throw DurableFileError(path: file.path, problem: "does not hold published users (\(error))")
        }
    }

    /// `stored` under the names this version gives the cuffs (``CuffName``, from each user's `device`), and each user
    /// whose name changed: one a version before the escaping named otherwise (`SN/1` as `SN_1`), whose entities are
    /// to be removed from Home Assistant and announced again under the new name.
    static func renamed(_ stored: [CuffUser: PublishedUser]) -> (users: [CuffUser: PublishedUser], renamed: [(from: CuffUser, to: CuffUser)]) {
        var users: [CuffUser: PublishedUser] = [:], renamed: [(from: CuffUser, to: CuffUser)] = []
        for old in stored.keys.sorted() {
            var user = stored[old]!
            user.cuff = CuffName.of(user.device)
            if user.key != old { renamed.append((old, user.key)) }
            users[user.key] = user
        }
        return (users, renamed)
    }

    func write(_ users: [CuffUser: PublishedUser]) throws(DurableFileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let sorted = users.keys.sorted().compactMap { users[$0] }
        guard let data = try? encoder.encode(sorted) else { throw DurableFileError(path: file.path, problem: "cannot be encoded") }
        try file.write(data)
    }
}
