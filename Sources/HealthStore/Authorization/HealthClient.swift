/// The principal calling the store: the D-Bus caller's unix uid (docs/reference/BLUEZ-DBUS.md §21) with its
/// groups, or the daemon itself (docs/reference/HEALTH-STORE.md §6).
public struct HealthClient: Sendable, Hashable {
    /// Unix user ID.
    public let uid: UInt32
    /// Unix group IDs (primary and supplementary).
    public let groups: Set<UInt32>
    /// Whether this is cuffd's own gateway: it writes cuff data under the gateway source and may
    /// read everything. Only constructed in-process (``daemon(uid:)``), never from a D-Bus caller.
    public let isDaemon: Bool

    /// A client identified by its uid and groups.
    public static func user(uid: UInt32, groups: Set<UInt32> = []) -> HealthClient {
        HealthClient(uid: uid, groups: groups, isDaemon: false)
    }

    /// The daemon's own principal.
    public static func daemon(uid: UInt32 = 0) -> HealthClient {
        HealthClient(uid: uid, groups: [], isDaemon: true)
    }

    /// Whether this client may grant and revoke: root, or a member of `adminGroup`.
    public func isAdministrator(adminGroup: UInt32?) -> Bool {
        uid == 0 || (adminGroup.map(groups.contains) ?? false)
    }
}
