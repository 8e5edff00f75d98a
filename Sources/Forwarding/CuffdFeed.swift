import DBus
import ReadingColumns

/// cuff-forward's side of `org.cuffd.Gateway1` (docs/dbus-api.md): pages of the change feed, the cuffs cuffd
/// remembers, and the signals that say when to ask again — `ReadingStored`, `ReadingsChanged` (readings deleted, entered by hand or
/// annotated), `RememberedCuffs` changing, and cuffd
/// (re)appearing on the bus.
struct CuffdFeed: Sendable {
    static let name = "org.cuffd.Gateway1"
    static let path: DBusObjectPath = "/org/cuffd/Gateway1"
    static let interface = "org.cuffd.Gateway1"
    /// Readings asked for per page: cuffd's largest, about 2 MB on the bus; cuff-forward holds at most two (the one
    /// its sinks write and the next, asked for meanwhile). Each page costs the far side one commit and the anchor
    /// file one write, each with its fsync: larger pages spread those over more readings.
    static let pageSize = UInt32(ReadingColumns.maximumRows)

    let connection: DBusConnection

    /// The changes after `anchor` (0: from the beginning of the store).
    func page(after anchor: UInt64) async throws(FeedError) -> ChangePage {
        try await ask("ChangeColumns", ["anchor": DBusVariant(anchor), "limit": DBusVariant(Self.pageSize)], ChangePage.init)
    }

    /// The newest reading cuffd holds of `user`'s cuff and User ID that is not excluded on request (`ReadingColumns` with
    /// `device`, `user`, `withoutExcluded` and `limit` 1), nil when none is left: what Home Assistant's state falls back
    /// to when the reading there was deleted or excluded.
    func newestReading(of user: PublishedUser) async throws(FeedError) -> ReadingRecord? {
        guard let address = user.device["address"] else { return nil }
        var filter: DBusProperties = ["device": DBusVariant(address), "withoutExcluded": DBusVariant(true), "limit": DBusVariant(UInt32(1))]
        if user.user.hasPrefix("user"), let id = UInt8(user.user.dropFirst(4)) { filter["user"] = DBusVariant(id) }
        return try await ask("ReadingColumns", filter) { try ReadingColumns.records($0).last }
    }

    /// What `member` answers `request` with — one dictionary —, made into `T` by `decode`; what cannot be is malformed.
    private func ask<T>(_ member: String, _ request: DBusProperties, _ decode: (DBusProperties) throws -> T) async throws(FeedError) -> T {
        let reply: [DBusValue]
        do {
            reply = try await connection.call(Self.name, Self.path, Self.interface, member, [request.dbusValue])
        } catch {
            throw Self.feedError(error)
        }
        do {
            guard let fields = try reply.first?.decode(DBusProperties.self) else { throw FeedError.malformed("an empty \(member) reply") }
            return try decode(fields)
        } catch let error as FeedError {
            throw error
        } catch let error as ReadingColumnsError {
            throw .malformed(error.description)
        } catch {
            throw .malformed("a \(member) reply of the wrong shape: \(error)")
        }
    }

    /// `RememberedCuffs`; its addresses nil when this cuffd has no such property.
    func rememberedCuffs() async throws(FeedError) -> RememberedCuffs {
        let reply: [DBusValue]
        do {
            reply = try await connection.call(Self.name, Self.path, StandardInterface.properties, "Get", [.string(Self.interface), .string("RememberedCuffs")])
        } catch where error.name == .unknownProperty {
            return RememberedCuffs(addresses: nil)
        } catch {
            throw Self.feedError(error)
        }
        guard case .variant(let value)? = reply.first, let addresses = try? value.decode([String].self) else {
            throw .malformed("a RememberedCuffs that is not a list of addresses")
        }
        return RememberedCuffs(addresses: Set(addresses))
    }

    /// A signal each time there may be something new to read or a cuff forgotten — once ``isWakeup(_:)`` says so.
    /// Subscribed before the first page is asked for, so that nothing stored in between goes unnoticed
    /// (docs/reference/BLUEZ-DBUS.md §7: match before call).
    func wakeups() async throws(FeedError) -> AsyncStream<DBusMessage> {
        do {
            return try await connection.signals(matchingAny: [
                MatchRule(sender: Self.name, interface: Self.interface, member: "ReadingStored"),
                MatchRule(sender: Self.name, interface: Self.interface, member: "ReadingsChanged"),
                MatchRule(sender: Self.name, interface: StandardInterface.properties, member: "PropertiesChanged", path: Self.path, arguments: [0: Self.interface]),
                MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arguments: [0: Self.name]),
            ])
        } catch {
            throw .busLost(error.description)
        }
    }

    /// Whether a signal of ``wakeups()`` calls for a look: of `org.cuffd.Gateway1`'s property changes only
    /// `RememberedCuffs` does, not `Status`, which changes with every reading and connection.
    static func isWakeup(_ signal: DBusMessage) -> Bool {
        guard signal.member == "PropertiesChanged" else { return true }
        return (try? signal.argument(1, as: DBusProperties.self))?["RememberedCuffs"] != nil
    }

    private static func feedError(_ error: DBusError) -> FeedError {
        switch error.name.rawValue {
        case "org.cuffd.Error.NotAuthorized", DBusError.Name.accessDenied.rawValue: .notAuthorized(error.description)
        case "org.cuffd.Error.AnchorExpired": .anchorExpired
        case DBusError.Name.disconnected.rawValue: .busLost(error.description)
        default: .cuffdUnavailable(error.description)
        }
    }
}
