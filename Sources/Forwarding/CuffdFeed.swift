import DBus
import ReadingColumns

/// cuff-forward's side of `org.cuffd.Gateway1` (docs/dbus-api.md): pages of the change feeds, the cuffs cuffd
/// remembers, and the signals that say when to ask again — `ReadingStored`, `HeartRatesStored`, `ReadingsChanged`
/// (readings deleted, entered by hand or annotated), `RememberedCuffs` changing, and cuffd (re)appearing on the bus.
struct CuffdFeed: Sendable {
    static let name = "org.cuffd.Gateway1"
    static let path: DBusObjectPath = "/org/cuffd/Gateway1"
    static let interface = "org.cuffd.Gateway1"
    /// Readings asked for per page: cuffd's largest, about 2 MB on the bus; cuff-forward holds at most two (the one
    /// its sinks write and the next, asked for meanwhile). Each page costs the far side one commit and the anchor
    /// file one write, each with its fsync: larger pages spread those over more readings.
    static let pageSize = UInt32(ReadingColumns.maximumRows)

    let connection: DBusConnection

    /// The changes of `kind` after `anchor` (0: from the beginning of the store).
    func page(_ kind: FeedKind, after anchor: UInt64) async throws(FeedError) -> ChangePage {
        try await ask(kind.method, ["anchor": DBusVariant(anchor), "limit": DBusVariant(Self.pageSize)], kind: kind) { try ChangePage($0, kind: kind) }
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
    /// `kind` is the feed a page is asked of (an expired anchor is that feed's).
    private func ask<T>(
        _ member: String, _ request: DBusProperties, kind: FeedKind = .readings, _ decode: (DBusProperties) throws -> T
    ) async throws(FeedError) -> T {
        let reply: [DBusValue]
        do {
            reply = try await connection.call(Self.name, Self.path, Self.interface, member, [request.dbusValue])
        } catch {
            throw Self.feedError(error, kind)
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

    /// Each cuff's battery (``CuffBattery``) as its `org.cuffd.Cuff1` object shows it, by address: the cuffs bluetoothd
    /// shows now; none of a cuffd without the properties.
    func batteries() async throws(FeedError) -> [String: CuffBattery] {
        let reply: [DBusValue]
        do {
            reply = try await connection.call(Self.name, Self.path, StandardInterface.objectManager, "GetManagedObjects")
        } catch {
            throw Self.feedError(error)
        }
        guard let objects = try? reply.first?.decode([DBusObjectPath: [String: DBusProperties]].self) else {
            throw .malformed("a GetManagedObjects reply of the wrong shape")
        }
        var batteries: [String: CuffBattery] = [:]
        for interfaces in objects.values {
            guard let cuff = interfaces[Self.cuffInterface], let address = try? cuff.property("Address", as: String.self),
                  let level = try? cuff.property("BatteryLevel", as: Int32.self), let low = try? cuff.property("BatteryLow", as: Bool.self)
            else { continue }
            batteries[address] = CuffBattery(level: UInt8(exactly: level), low: low)
        }
        return batteries
    }

    static let cuffInterface = "org.cuffd.Cuff1"

    /// A signal each time there may be something new to read or a cuff forgotten — once ``wakes(_:)`` says for which
    /// feeds.
    /// Subscribed before the first page is asked for, so that nothing stored in between goes unnoticed
    /// (docs/reference/BLUEZ-DBUS.md §7: match before call).
    func wakeups() async throws(FeedError) -> AsyncStream<DBusMessage> {
        do {
            return try await connection.signals(matchingAny: [
                MatchRule(sender: Self.name, interface: Self.interface, member: FeedKind.readings.signal),
                MatchRule(sender: Self.name, interface: Self.interface, member: FeedKind.heartRates.signal),
                MatchRule(sender: Self.name, interface: Self.interface, member: "ReadingsChanged"),
                MatchRule(sender: Self.name, interface: StandardInterface.properties, member: "PropertiesChanged", path: Self.path, arguments: [0: Self.interface]),
                MatchRule(
                    sender: Self.name, interface: StandardInterface.properties, member: "PropertiesChanged", pathNamespace: Self.path,
                    arguments: [0: Self.cuffInterface]),
                MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", arguments: [0: Self.name]),
            ])
        } catch {
            throw .busLost(error.description)
        }
    }

    /// Which feeds a signal of ``wakeups()`` calls for a look at: `ReadingStored` the readings', `HeartRatesStored`
    /// the heart-rate samples', cuffd (re)appearing and `RememberedCuffs` changing every one (the MQTT sink removes
    /// a forgotten cuff before a page of either), and so does a cuff's battery changing (which it publishes then);
    /// `Status`, which changes with every reading and connection, and a cuff's other properties, none.
    static func wakes(_ signal: DBusMessage) -> Set<FeedKind> {
        if let kind = FeedKind.allCases.first(where: { $0.signal == signal.member }) { return [kind] }
        guard signal.member == "PropertiesChanged" else { return Set(FeedKind.allCases) }
        let changed = (try? signal.argument(1, as: DBusProperties.self)) ?? [:]
        return ["RememberedCuffs", "BatteryLevel", "BatteryLow"].contains { changed[$0] != nil } ? Set(FeedKind.allCases) : []
    }

    /// What a failed call means; `kind` is the feed a page of it was asked of.
    private static func feedError(_ error: DBusError, _ kind: FeedKind = .readings) -> FeedError {
        switch error.name.rawValue {
        case "org.cuffd.Error.NotAuthorized", DBusError.Name.accessDenied.rawValue: .notAuthorized(error.description)
        case "org.cuffd.Error.AnchorExpired": .anchorExpired(kind)
        case DBusError.Name.disconnected.rawValue: .busLost(error.description)
        default: .cuffdUnavailable(error.description)
        }
    }
}
