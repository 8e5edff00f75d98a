/// Share status for one type, as `HKAuthorizationStatus` (`HKDefines.h`): reports **share** status
/// only; read status is not disclosed (HealthKit: `HKHealthStore.authorizationStatus(for:)`).
public enum AuthorizationStatus: Int, Sendable, Hashable {
    /// No grant stored for the client and type.
    case notDetermined = 0
    /// A grant exists without share permission.
    case sharingDenied = 1
    /// The client may save samples of the type.
    case sharingAuthorized = 2
}

/// A client's stored permissions for one quantity type (`requestAuthorization(toShare:read:)`).
public struct AuthorizationGrant: Sendable, Hashable {
    /// The client's uid.
    public let uid: UInt32
    /// The quantity type.
    public let type: QuantityType
    /// May save samples of the type.
    public let canShare: Bool
    /// May read other sources' samples of the type.
    public let canRead: Bool
    /// The people (``MetadataKey/personIdentifier``) whose samples a read grant covers; nil for everyone's. Never
    /// empty: a read grant of nobody's samples is no read grant (docs/health-store.md, "Authorization").
    public let people: Set<String>?

    /// A grant; `people` counts only with `canRead`, and an empty set of people reads nobody's: no read grant.
    public init(uid: UInt32, type: QuantityType, canShare: Bool, canRead: Bool, people: Set<String>? = nil) {
        self.uid = uid
        self.type = type
        self.canShare = canShare
        self.canRead = canRead && people?.isEmpty != true
        self.people = self.canRead ? people : nil
    }
}
