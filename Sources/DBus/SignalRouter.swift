/// Fans received signals out to subscriptions (docs/reference/BLUEZ-DBUS.md §15: one filter, an in-process
/// router). A subscription's rule is matched locally because the connection receives the union
/// of all its rules. Rules whose `sender` is a well-known name are compared with that name's
/// current unique owner, which the connection keeps in `owners`. Only touched on the queue.
struct SignalRouter {
    /// One subscriber: it receives each signal that matches any of its rules once, in arrival order.
    struct Subscription: Sendable {
        let rules: [MatchRule]
        let deliver: @Sendable (DBusMessage) -> Void
        let finish: @Sendable () -> Void
    }

    private var subscriptions: [Int: Subscription] = [:]
    private var nextToken = 0
    /// Unique owners of the well-known names that rules name as `sender` ("" while unowned).
    var owners: [String: String] = [:]
    /// How many subscriptions use each rule text, so `AddMatch`/`RemoveMatch` are sent once.
    private(set) var ruleUsers: [String: Int] = [:]

    /// Adds a subscription; returns its token and the rules that are new on this connection.
    mutating func add(_ subscription: Subscription) -> (token: Int, newRules: [MatchRule]) {
        let token = nextToken
        nextToken += 1
        subscriptions[token] = subscription
        var newRules: [MatchRule] = []
        for rule in subscription.rules {
            ruleUsers[rule.description, default: 0] += 1
            if ruleUsers[rule.description] == 1 { newRules.append(rule) }
        }
        return (token, newRules)
    }

    /// Removes a subscription; returns the rules no other subscription uses any more.
    mutating func remove(_ token: Int) -> [MatchRule] {
        guard let subscription = subscriptions.removeValue(forKey: token) else { return [] }
        var unused: [MatchRule] = []
        for rule in subscription.rules {
            let text = rule.description
            ruleUsers[text, default: 1] -= 1
            guard ruleUsers[text] == 0 else { continue }
            ruleUsers[text] = nil
            unused.append(rule)
        }
        return unused
    }

    mutating func deliver(_ message: DBusMessage) {
        if message.sender == "org.freedesktop.DBus", message.member == "NameOwnerChanged",
           case .string(let name)? = message.arguments.first, owners.keys.contains(name),
           message.arguments.count == 3, case .string(let newOwner) = message.arguments[2] {
            owners[name] = newOwner
        }
        for subscription in subscriptions.values {
            let matched = subscription.rules.contains { rule in
                rule.matches(message, senderUniqueName: rule.sender.flatMap { owners[$0] })
            }
            if matched { subscription.deliver(message) }
        }
    }

    mutating func finishAll() {
        for subscription in subscriptions.values { subscription.finish() }
        subscriptions.removeAll()
        ruleUsers.removeAll()
    }
}
