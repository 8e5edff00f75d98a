import Foundation

/// Any saved object: what the anchored change feed returns as "added".
public enum HealthObject: Sendable, Hashable {
    /// A quantity sample (including correlation members and linked samples).
    case quantity(QuantitySample)
    /// A correlation with its members and linked samples.
    case correlation(Correlation)

    /// The object's UUID.
    public var uuid: UUID {
        switch self {
        case .quantity(let s): s.uuid
        case .correlation(let c): c.uuid
        }
    }
}

/// A deletion as the change feed reports it: `HKDeletedObject(uuid, metadata)` carrying only the
/// sync identifier and version (HealthKit: `HKDeletedObject.metadata`, docs/reference/HEALTH-STORE.md §4).
public struct DeletedObject: Sendable, Hashable {
    /// UUID of the deleted (or replaced) object.
    public let uuid: UUID
    /// Type identifier of the deleted object.
    public let typeIdentifier: String
    /// Sync identifier of the deleted object, if it had one.
    public let syncIdentifier: String?
    /// Sync version of the deleted object, if it had one.
    public let syncVersion: Int64?
    /// When the tombstone was written.
    public let deletedAt: Date

    /// A tombstone.
    public init(uuid: UUID, typeIdentifier: String, syncIdentifier: String?, syncVersion: Int64?, deletedAt: Date) {
        self.uuid = uuid
        self.typeIdentifier = typeIdentifier
        self.syncIdentifier = syncIdentifier
        self.syncVersion = syncVersion
        self.deletedAt = deletedAt
    }
}
