import Foundation

/// What a save did to one object under the sync-identifier rule (docs/reference/HEALTH-STORE.md §3): an object
/// replaces the stored one with the same (source, syncIdentifier) **iff** its version is strictly
/// greater; equal or lower is an idempotent no-op returning the stored object.
public enum SaveOutcome<Object: Sendable & Hashable>: Sendable, Hashable {
    /// Committed as a new object.
    case inserted(Object)
    /// Committed, replacing the stored object whose UUID is given (it is tombstoned).
    case replaced(Object, replacedUUID: UUID)
    /// Nothing written: the store already held this sync identifier at an equal or greater
    /// version; the stored object is returned.
    case alreadyStored(Object)
    /// Nothing written: a correlation with this (source, sync identifier) was deleted on request, and a deletion is
    /// remembered for good (a cuff sending it again from its memory does not bring it back); the object given is
    /// returned.
    case deleted(Object)

    /// The object now in the store.
    public var object: Object {
        switch self {
        case .inserted(let o), .replaced(let o, _), .alreadyStored(let o), .deleted(let o): o
        }
    }

    /// Whether this save committed anything ("committed, new" vs "already stored (duplicate)").
    public var didCommit: Bool {
        switch self {
        case .inserted, .replaced: true
        case .alreadyStored, .deleted: false
        }
    }
}
