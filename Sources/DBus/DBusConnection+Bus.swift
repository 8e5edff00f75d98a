/// The message bus's own methods (D-Bus Specification, "Message Bus Messages").
extension DBusConnection {
    /// Flags of `RequestName`.
    public struct NameFlags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let allowReplacement = NameFlags(rawValue: 0x1)
        public static let replaceExisting = NameFlags(rawValue: 0x2)
        public static let doNotQueue = NameFlags(rawValue: 0x4)
    }

    /// The bus's answer to `RequestName`.
    public enum NameRequestResult: UInt32, Sendable {
        case primaryOwner = 1, inQueue = 2, exists = 3, alreadyOwner = 4
    }

    func callBus(_ member: String, _ arguments: [DBusValue]) async throws(DBusError) -> [DBusValue] {
        try await call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", member, arguments)
    }

    /// Requests a well-known name. A policy that forbids owning it answers `AccessDenied`.
    public func requestName(_ name: String, flags: NameFlags = [.doNotQueue]) async throws(DBusError) -> NameRequestResult {
        let reply = try await callBus("RequestName", [.string(name), .uint32(flags.rawValue)])
        guard case .uint32(let code)? = reply.first, let result = NameRequestResult(rawValue: code) else {
            throw DBusError(.failed, "unexpected RequestName reply \(reply)")
        }
        return result
    }

    /// Releases a well-known name this connection owns or is queued for.
    public func releaseName(_ name: String) async throws(DBusError) {
        _ = try await callBus("ReleaseName", [.string(name)])
    }

    /// The unique name that owns `name`; `NameHasNoOwner` when nobody does.
    public func nameOwner(of name: String) async throws(DBusError) -> String {
        let reply = try await callBus("GetNameOwner", [.string(name)])
        guard case .string(let owner)? = reply.first else { throw DBusError(.failed, "unexpected GetNameOwner reply \(reply)") }
        return owner
    }

    /// The unix user id of the process behind a connection, e.g. a method call's sender.
    public func unixUser(of connectionName: String) async throws(DBusError) -> UInt32 {
        let reply = try await callBus("GetConnectionUnixUser", [.string(connectionName)])
        guard case .uint32(let uid)? = reply.first else { throw DBusError(.failed, "unexpected GetConnectionUnixUser reply \(reply)") }
        return uid
    }

    /// Who is behind a connection (`GetConnectionCredentials`): the unix user, its groups (dbus ≥ 1.13's
    /// `UnixGroupIDs`, the groups the bus saw when the caller connected) and the process id. Asked of the bus once
    /// per unique name (``CredentialsCache``).
    public func credentials(of connectionName: String) async throws(DBusError) -> ConnectionCredentials {
        if let known = credentialsCache.withLock({ $0[connectionName] }) { return known }
        let reply = try await callBus("GetConnectionCredentials", [.string(connectionName)])
        guard let properties = try? reply.first?.decode(DBusProperties.self),
              let uid = try? properties.property("UnixUserID", as: UInt32.self)
        else { throw DBusError(.failed, "unexpected GetConnectionCredentials reply \(reply)") }
        let groups = ((try? properties.property("UnixGroupIDs", as: [UInt32].self)) ?? nil) ?? []
        let credentials = ConnectionCredentials(uid: uid, groups: Set(groups), processID: try? properties.property("ProcessID", as: UInt32.self))
        credentialsCache.withLock { $0.remember(credentials, of: connectionName) }
        return credentials
    }

    /// Owner changes of one well-known name (a service starting, stopping or restarting),
    /// subscribed before this returns.
    public func nameOwnerChanges(of name: String) async throws(DBusError) -> AsyncStream<NameOwnerChange> {
        let signals = try await signals(matching: Self.ownerRule(name))
        return AsyncStream { continuation in
            let task = Task {
                for await signal in signals {
                    guard signal.arguments.count == 3,
                          case .string(let old) = signal.arguments[1], case .string(let new) = signal.arguments[2]
                    else { continue }
                    continuation.yield(NameOwnerChange(name: name, oldOwner: old.isEmpty ? nil : old, newOwner: new.isEmpty ? nil : new))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// One `NameOwnerChanged`: `newOwner` nil means the service left the bus.
public struct NameOwnerChange: Sendable, Hashable {
    public let name: String
    public let oldOwner: String?
    public let newOwner: String?

    public init(name: String, oldOwner: String?, newOwner: String?) {
        self.name = name
        self.oldOwner = oldOwner
        self.newOwner = newOwner
    }
}

/// What the bus knows about a peer (`GetConnectionCredentials`).
public struct ConnectionCredentials: Sendable, Hashable {
    public let uid: UInt32
    public let groups: Set<UInt32>
    public let processID: UInt32?

    public init(uid: UInt32, groups: Set<UInt32>, processID: UInt32?) {
        self.uid = uid
        self.groups = groups
        self.processID = processID
    }
}
