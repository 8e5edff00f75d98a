import Foundation

/// One change on request of a stored correlation — entered by hand, annotated or deleted — as the store keeps it for
/// good, written in the same transaction as the change itself (docs/health-store.md, "Edit history"). It names who
/// changed the correlation and which metadata keys changed, never a value: a deleted reading's values are gone.
public struct EditRecord: Sendable, Equatable {
    /// What was done to the correlation.
    public enum Action: String, Sendable {
        /// Saved as entered by hand (``HealthStore/saveEnteredByHand(_:as:)``).
        case entered
        /// A new revision with changed metadata (``HealthStore/reviseCorrelation(of:syncIdentifier:changes:as:)``).
        case annotated
        /// Deleted on request (``HealthStore/deleteCorrelations(of:syncIdentifiers:as:)``).
        case deleted
    }

    /// The correlation's sync identifier.
    public let syncIdentifier: String
    public let action: Action
    /// The uid of the client that made the change.
    public let uid: UInt32
    /// The metadata keys the change set or removed, sorted (none for a deletion).
    public let changedKeys: [String]
    /// When the change was committed.
    public let date: Date

    /// The keys an entry by hand records as changed: every metadata key the saved correlation carries but its sync
    /// identifier and version, sorted.
    public static func enteredKeys(_ metadata: HealthMetadata) -> [String] {
        metadata.entries.keys.sorted()
    }

    public init(syncIdentifier: String, action: Action, uid: UInt32, changedKeys: [String], date: Date) {
        self.syncIdentifier = syncIdentifier
        self.action = action
        self.uid = uid
        self.changedKeys = changedKeys
        self.date = date
    }
}
