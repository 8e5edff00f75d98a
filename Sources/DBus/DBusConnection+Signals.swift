/// Signals as async sequences.
extension DBusConnection {
    /// Subscribes to the signals that match `rule`. The rule is installed on the bus (`AddMatch`)
    /// before this returns, so a call made afterwards cannot trigger a signal the stream misses
    /// (docs/reference/BLUEZ-DBUS.md §7: match before subscribe). The stream ends when the connection closes;
    /// dropping or cancelling it removes the rule once no other stream uses it.
    public func signals(
        matching rule: MatchRule,
        bufferingPolicy: AsyncStream<DBusMessage>.Continuation.BufferingPolicy = .unbounded
    ) async throws(DBusError) -> AsyncStream<DBusMessage> {
        try await signals(matchingAny: [rule], bufferingPolicy: bufferingPolicy)
    }

    /// Subscribes to the signals that match any of `rules`, as one stream in the order they arrived:
    /// a signal matching several rules comes once. An object mirror needs this, since
    /// `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged` only make sense in their order
    /// (docs/reference/BLUEZ-DBUS.md §1). Every rule is installed before this returns. `tally`, when given, counts each
    /// signal as it is handed to the stream.
    public func signals(
        matchingAny rules: [MatchRule],
        bufferingPolicy: AsyncStream<DBusMessage>.Continuation.BufferingPolicy = .unbounded,
        tally: SignalTally? = nil
    ) async throws(DBusError) -> AsyncStream<DBusMessage> {
        let (stream, continuation) = AsyncStream<DBusMessage>.makeStream(bufferingPolicy: bufferingPolicy)
        for sender in Set(rules.compactMap(\.sender)) where !sender.hasPrefix(":") && sender != "org.freedesktop.DBus" {
            try await trackOwner(of: sender)
        }
        let subscription = SignalRouter.Subscription(
            rules: rules,
            deliver: { message in
                tally?.add()
                continuation.yield(message)
            },
            finish: { continuation.finish() }
        )
        let (token, newRules, open) = await onQueue { () -> (Int, [MatchRule], Bool) in
            guard self.isOpen else { return (0, [], false) }
            let added = self.router.add(subscription)
            return (added.token, added.newRules, true)
        }
        guard open else { throw DBusError(.disconnected, "connection closed") }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.queue.async {
                let unused = self.router.remove(token)
                guard self.isOpen else { return }
                for rule in unused {
                    try? self.send(.methodCall(
                        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                        interface: "org.freedesktop.DBus", member: "RemoveMatch", arguments: [.string(rule.description)]
                    ))
                }
            }
        }
        for rule in newRules {
            do {
                _ = try await callBus("AddMatch", [.string(rule.description)])
            } catch {
                continuation.finish()
                throw error
            }
        }
        return stream
    }

    /// Keeps the unique owner of `name` current, so rules naming it as sender match locally.
    private func trackOwner(of name: String) async throws(DBusError) {
        // Another subscription may already use the same NameOwnerChanged rule (`nameOwnerChanges`);
        // only a known owner means the name is tracked.
        let alreadyTracked = await onQueue { self.router.owners.keys.contains(name) }
        guard !alreadyTracked else { return }
        let rule = Self.ownerRule(name)
        let newRules = await onQueue {
            self.router.add(SignalRouter.Subscription(rules: [rule], deliver: { _ in }, finish: {})).newRules
        }
        if !newRules.isEmpty { _ = try await callBus("AddMatch", [.string(rule.description)]) }
        let owner = try? await nameOwner(of: name)
        await onQueue {
            // A NameOwnerChanged that arrived meanwhile is newer than the GetNameOwner reply.
            if self.router.owners[name] == nil { self.router.owners[name] = owner ?? "" }
        }
    }

    static func ownerRule(_ name: String) -> MatchRule {
        MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arguments: [0: name])
    }

    /// Emits a signal from `path`.
    public func emitSignal(_ path: DBusObjectPath, _ interface: String, _ member: String, _ arguments: [DBusValue] = []) throws(DBusError) {
        try send(.signal(path: path, interface: interface, member: member, arguments: arguments))
    }

    /// Runs `body` on the connection's queue and returns its result.
    func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }
}
