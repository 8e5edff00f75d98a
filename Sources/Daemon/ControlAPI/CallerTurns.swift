/// Items waiting by caller (uid): each caller's in the order they came, the callers in turn — the next item is the
/// oldest of the caller served longest ago —, so that a caller waits for at most one item of each other waiting caller,
/// not for every item queued before its own (docs/dbus-api.md, "Reads"). Used for the reads waiting for their pace
/// (``ReadAdmission``) and the reads waiting for a reading thread (``ReadJobs``).
struct CallerTurns<Item> {
    private var waiting: [UInt32: [Item]] = [:]
    /// The callers with items waiting, the next to be served first.
    private var turn: [UInt32] = []

    var isEmpty: Bool { turn.isEmpty }

    /// The items waiting, all callers together.
    var count: Int { waiting.values.reduce(0) { $0 + $1.count } }

    mutating func append(_ item: Item, for uid: UInt32) {
        if waiting[uid] == nil { turn.append(uid) }
        waiting[uid, default: []].append(item)
    }

    /// The next item in turn, taken out; nil when none waits.
    mutating func next() -> Item? {
        guard !turn.isEmpty else { return nil }
        let uid = turn.removeFirst()
        var items = waiting[uid]!
        let item = items.removeFirst()
        if items.isEmpty {
            waiting[uid] = nil
        } else {
            waiting[uid] = items
            turn.append(uid)
        }
        return item
    }

    /// Takes out, from the front of each caller's items, those `isExpired` holds for, and returns them.
    mutating func removeLeading(where isExpired: (Item) -> Bool) -> [Item] {
        var removed: [Item] = []
        for (uid, items) in waiting {
            let expired = items.prefix(while: isExpired)
            guard !expired.isEmpty else { continue }
            removed += expired
            waiting[uid] = expired.count == items.count ? nil : Array(items.dropFirst(expired.count))
        }
        turn.removeAll { waiting[$0] == nil }
        return removed
    }
}
