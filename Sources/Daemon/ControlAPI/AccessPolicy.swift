import DBus
import HealthStore
import ReadingQueries

#if canImport(Glibc)
import Glibc
#endif

/// Who may do what through the control API, checked in the daemon by the caller's credentials on top of the
/// bus policy (systemd/org.cuffd.Gateway1.conf; docs/reference/BLUEZ-DBUS.md §21): root and members of the admin group
/// administer (pair, forget, grant), members of the reader group read state and start measurements,
/// everyone else is refused.
public struct AccessPolicy: Sendable {
    public enum Role: Int, Comparable, Sendable {
        case none, reader, administrator
        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    public var administratorGroup: UInt32?
    public var readerGroup: UInt32?

    public init(administratorGroup: UInt32?, readerGroup: UInt32?) {
        self.administratorGroup = administratorGroup
        self.readerGroup = readerGroup
    }

    /// The groups by name, looked up once at start-up (`getgrnam(3)`); a missing group grants nothing.
    public init(administratorGroupName: String, readerGroupName: String) {
        self.init(administratorGroup: Self.groupID(administratorGroupName), readerGroup: Self.groupID(readerGroupName))
    }

    public static func groupID(_ name: String) -> UInt32? {
        getgrnam(name).map { $0.pointee.gr_gid }
    }

    public func role(of caller: ConnectionCredentials) -> Role {
        if caller.uid == 0 || administratorGroup.map(caller.groups.contains) == true { return .administrator }
        if readerGroup.map(caller.groups.contains) == true { return .reader }
        return .none
    }

    /// The store principal a caller reads as: administrators read everything, as the daemon does; a reader
    /// goes through HealthStore's per-client grants (docs/reference/HEALTH-STORE.md §6).
    public func storeClient(for caller: ConnectionCredentials) -> HealthClient {
        role(of: caller) == .administrator ? .daemon(uid: caller.uid) : .user(uid: caller.uid, groups: caller.groups)
    }

    /// The caller's credentials, refused unless its role reaches `required`.
    func authorize(_ call: DBusMethodCall, _ required: Role) async throws -> ConnectionCredentials {
        let caller = try await call.callerCredentials()
        guard role(of: caller) >= required else { throw ControlError.lacksRole(uid: caller.uid, needs: required) }
        return caller
    }
}
