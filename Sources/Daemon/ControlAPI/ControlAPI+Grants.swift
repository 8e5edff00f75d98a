import DBus
import HealthStore
import ReadingQueries

/// `Grant`, `GrantPerson`, `Revoke`, `RevokePerson`, `Grants` and `Permissions`: who reads and writes which types, and
/// whose readings (docs/dbus-api.md, "Grants"; docs/reference/HEALTH-STORE.md §6).
extension ControlAPI {
    /// The methods of grants, administrators' but for a reader's own `Grants` and `Permissions`.
    func grantMethods() -> [DBusInterface.Method] {
        let uid = DBusInterface.Argument("uid", .uint32), type = DBusInterface.Argument("type", .string)
        let access = DBusInterface.Argument("access", .string), person = DBusInterface.Argument("person", .string)
        return [
            .init("Grant", inputs: [uid, type, access]) { call in
                let caller = try await self.policy.authorize(call, .administrator)
                try self.setGrants(uid: call.argument(0), type: call.argument(1), access: call.argument(2), by: caller)
                return []
            },
            .init("GrantPerson", inputs: [uid, type, access, person]) { call in
                let caller = try await self.policy.authorize(call, .administrator)
                try self.grantPerson(uid: call.argument(0), type: call.argument(1), access: call.argument(2), person: call.argument(3), by: caller)
                return []
            },
            .init("Revoke", inputs: [uid, type]) { call in
                let caller = try await self.policy.authorize(call, .administrator)
                try self.setGrants(uid: call.argument(0), type: call.argument(1), access: "", by: caller)
                return []
            },
            .init("RevokePerson", inputs: [uid, type, person]) { call in
                let caller = try await self.policy.authorize(call, .administrator)
                try self.revokePerson(uid: call.argument(0), type: call.argument(1), person: call.argument(2), by: caller)
                return []
            },
            .init("Grants", inputs: [uid], outputs: [.init("grants", .array(.structure([.string, .string, .array(.string)])))]) { call in
                let grants = try await self.grants(of: call)
                return [.array(.structure([.string, .string, .array(.string)]), grants.map { grant in
                    .structure([.string(grant.type.identifier), .string(Self.access(grant)), (grant.people?.sorted() ?? []).dbusValue])
                })]
            },
            .init("Permissions", inputs: [uid], outputs: [.init("grants", .array(.structure([.string, .string])))]) { call in
                // Kept as it was: `read` here is a read of everyone's; a read of named people is in `Grants` only.
                let grants = try await self.grants(of: call).compactMap { grant -> (String, String)? in
                    let access = Self.access(grant.people == nil ? grant : AuthorizationGrant(uid: grant.uid, type: grant.type, canShare: grant.canShare, canRead: false))
                    return access.isEmpty ? nil : (grant.type.identifier, access)
                }
                return [.array(.structure([.string, .string]), grants.map { .structure([.string($0.0), .string($0.1)]) })]
            },
        ]
    }

    /// The grants of the call's `uid`: the caller's own, or anyone's for an administrator.
    private func grants(of call: DBusMethodCall) async throws -> [AuthorizationGrant] {
        let caller = try await policy.authorize(call, .reader)
        let uid: UInt32 = try call.argument(0)
        guard uid == caller.uid || policy.role(of: caller) == .administrator else {
            throw ControlError.lacksRole(uid: caller.uid, needs: .administrator)
        }
        return try Self.storeCall { try store.grants(of: uid) }
    }

    /// `Grant`/`Revoke`: `access` is `read`, `share`, `read,share`, or empty to revoke; a read of everyone's.
    func setGrants(uid: UInt32, type: String, access: String, by caller: ConnectionCredentials) throws {
        let types = try Self.types(named: type, for: uid)
        let (read, share) = try Self.access(parsing: access)
        for type in types {
            try set(AuthorizationGrant(uid: uid, type: type, canShare: share, canRead: read), by: caller)
        }
    }

    /// `GrantPerson`: `access` as in `Grant`, with `read`, which covers the readings of `person` and of the people the
    /// uid's read grant of the type named already (grants of people add up); one of everyone's becomes one of `person`'s.
    func grantPerson(uid: UInt32, type: String, access: String, person: String, by caller: ConnectionCredentials) throws {
        let types = try Self.types(named: type, for: uid)
        let (read, share) = try Self.access(parsing: access)
        guard read else { throw ControlError.invalidArguments("a grant of a person's readings is a read grant: access read or read,share, not \"\(access.prefix(80))\"") }
        try Self.check(person: person)
        for type in types {
            let held = try grant(of: uid, type)
            let people = held.canRead ? held.people ?? [] : []
            try set(AuthorizationGrant(uid: uid, type: type, canShare: share, canRead: true, people: people.union([person])), by: caller)
        }
    }

    /// `RevokePerson`: `person` leaves the uid's read grants of people; a grant left naming nobody reads nothing, its
    /// share kept. Refused for a read of everyone's, which names no one to take out (`Revoke` ends it).
    func revokePerson(uid: UInt32, type: String, person: String, by caller: ConnectionCredentials) throws {
        let types = try Self.types(named: type, for: uid)
        try Self.check(person: person)
        for type in types {
            let held = try grant(of: uid, type)
            guard held.canRead else { continue }
            guard let people = held.people else {
                throw ControlError.invalidArguments("uid \(uid) may read everyone's \(type.identifier), not named people's: Revoke ends that grant")
            }
            let left = people.subtracting([person])
            try set(AuthorizationGrant(uid: uid, type: type, canShare: held.canShare, canRead: !left.isEmpty, people: left), by: caller)
        }
    }

    /// The uid's grant of `type`, or one allowing nothing.
    private func grant(of uid: UInt32, _ type: QuantityType) throws -> AuthorizationGrant {
        try Self.storeCall { try store.grants(of: uid) }.first { $0.type == type }
            ?? AuthorizationGrant(uid: uid, type: type, canShare: false, canRead: false)
    }

    private func set(_ grant: AuthorizationGrant, by caller: ConnectionCredentials) throws {
        let client = HealthClient.user(uid: caller.uid, groups: caller.groups)
        try Self.storeCall { try store.setAuthorization(grant, by: client) }
    }

    /// The quantity types a grant's `type` names, for a uid that names somebody.
    private static func types(named type: String, for uid: UInt32) throws -> [QuantityType] {
        guard let types = TypeGroups.byName[type] else { throw ControlError.invalidArguments("unknown type \"\(type.prefix(80))\"; types: \(TypeGroups.names)") }
        guard uid != UInt32.max else { throw ControlError.invalidArguments("uid \(uid) is (uid_t) -1, which names nobody") }
        return types
    }

    /// The longest person's name a grant takes, in bytes of UTF-8.
    static let maximumPersonBytes = 256

    /// A person's name as cuffd.conf's `User0=` gives it: not empty, at most ``maximumPersonBytes``, no control characters.
    static func check(person: String) throws {
        guard !person.isEmpty else { throw ControlError.invalidArguments("a person's name is not empty: the name cuffd.conf maps a User ID to (User0=alice)") }
        guard person.utf8.count <= maximumPersonBytes else {
            throw ControlError.invalidArguments("a person's name is at most \(maximumPersonBytes) bytes, not \(person.utf8.count)")
        }
        guard !person.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ControlError.invalidArguments("a person's name has no control characters")
        }
    }

    /// `read`, `share`, `read,share` (either order, each word once), or empty for neither.
    static func access(parsing text: String) throws -> (read: Bool, share: Bool) {
        guard !text.isEmpty else { return (false, false) }
        let words = text.split(separator: ",", omittingEmptySubsequences: false)
        guard Set(words).count == words.count, words.allSatisfy({ $0 == "read" || $0 == "share" }) else {
            throw ControlError.invalidArguments("access is read, share or read,share, not \"\(text.prefix(80))\"")
        }
        return (words.contains("read"), words.contains("share"))
    }

    static func access(_ grant: AuthorizationGrant) -> String {
        [grant.canRead ? "read" : nil, grant.canShare ? "share" : nil].compactMap { $0 }.joined(separator: ",")
    }
}
