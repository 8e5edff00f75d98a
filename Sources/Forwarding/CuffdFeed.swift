import DBus
import ReadingColumns

/// cuff-forward's side of `org.cuffd.Gateway1` (docs/dbus-api.md): pages of the change feed, the cuffs cuffd
/// remembers, and the signals that say when to ask again — `ReadingStored`, `RememberedCuffs` changing, and cuffd
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
        let request: DBusProperties = ["anchor": DBusVariant(anchor), "limit": DBusVariant(Self.pageSize)]
        let reply: [DBusValue]
        do {
            reply = try await connection.call(Self.name, Self.path, Self.interface, "ChangeColumns", [request.dbusValue])
        } catch {
            throw Self.feedError(error)
        }
        do {
            guard let fields = try reply.first?.decode(DBusProperties.self) else { throw FeedError.malformed("an empty ChangeColumns reply") }
            return try ChangePage(fields)
        } catch let error as FeedError {
            throw error
        } catch {
            throw .malformed("a ChangeColumns reply of the wrong shape: \(error)")
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
