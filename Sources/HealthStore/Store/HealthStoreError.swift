import Foundation

/// Every failure of the store. Bad input and denied clients write nothing.
public enum HealthStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    // Input
    /// The unit string is not one of the accepted HealthKit/UCUM forms (docs/reference/HEALTH-STORE.md §1).
    case unknownUnit(String)
    /// The unit measures another dimension than the type's canonical unit.
    case incompatibleUnit(unit: String, expected: String)
    /// The type identifier is not registered.
    case unknownType(String)
    /// `end < start` (HealthKit: `HKSample`: start ≤ end).
    case endBeforeStart(uuid: UUID)
    /// NaN or infinite value.
    case nonFiniteValue(uuid: UUID)
    /// A required correlation member is absent.
    case missingCorrelationMember(correlation: UUID, type: String)
    /// Other malformed correlation: duplicate member, foreign type, dates differ.
    case invalidCorrelation(correlation: UUID, reason: String)
    /// A metadata entry is unknown, of the wrong kind or out of range.
    case invalidMetadata(key: String, reason: String)
    /// "Saving an object whose UUID exists fails" (`HKHealthStore.h`).
    case duplicateUUID(UUID)
    /// A date outside ``SamplePredicate/supportedDates`` (NaN, infinite, or beyond the years 1–9999), in a
    /// query or an object.
    case unsupportedDate(Double)

    // Authorization (`errorAuthorizationNotDetermined` / `errorAuthorizationDenied`)
    /// The client never got a share decision for the type.
    case authorizationNotDetermined(type: String)
    /// The client may not share (write) the type.
    case authorizationDenied(type: String)
    /// Only root or the admin group may grant and revoke.
    case notAdministrator(uid: UInt32)
    /// "An application may only delete objects that it previously saved" (`HKHealthStore.h`).
    case notOwner(UUID)
    /// No such object (or not visible to the client).
    case objectNotFound(UUID)
    /// No reading (correlation) holds this sync identifier, or none the client may see.
    case unknownSyncIdentifier(String)
    /// Members are deleted with their correlation, never alone (cuffd rule, no half correlations).
    case memberOfCorrelation(UUID)

    // Change feed
    /// The anchor precedes purged tombstones: do a full resync (Health Connect `changesTokenExpired`).
    case anchorExpired(QueryAnchor)

    // Storage
    /// SQLITE_FULL: the disk (or the database size limit) is full; nothing was committed.
    case diskFull
    /// SQLITE_CORRUPT / SQLITE_NOTADB.
    case databaseCorrupt(String)
    /// SQLITE_BUSY / SQLITE_LOCKED after the busy timeout.
    case databaseBusy
    /// SQLITE_READONLY / SQLITE_CANTOPEN / SQLITE_PERM / SQLITE_IOERR, with the SQLite message.
    case storageUnavailable(String)
    /// After open, journal_mode or synchronous was not what durability requires (docs/reference/HEALTH-STORE.md §12).
    case durabilityNotEnforced(journalMode: String, synchronous: Int)
    /// The database was written by a newer schema than this build knows.
    case unsupportedSchema(String)
    /// The path names something that is not a cuffd store (a link, a device, another application's database);
    /// it was left untouched.
    case notAStore(path: String, reason: String)
    /// Any other SQLite error, with its code and message.
    case storage(code: Int32, message: String)

    public var description: String {
        switch self {
        case .unknownUnit(let u): "unknown unit '\(u)'"
        case .incompatibleUnit(let u, let e): "unit '\(u)' is not compatible with '\(e)'"
        case .unknownType(let t): "unknown type '\(t)'"
        case .endBeforeStart(let id): "sample \(id): end date before start date"
        case .nonFiniteValue(let id): "sample \(id): value is not finite"
        case .missingCorrelationMember(let c, let t): "correlation \(c): missing member of type \(t)"
        case .invalidCorrelation(let c, let r): "correlation \(c): \(r)"
        case .invalidMetadata(let k, let r): "metadata '\(k)': \(r)"
        case .duplicateUUID(let id): "an object with UUID \(id) already exists"
        case .unsupportedDate(let seconds): "\(seconds) s since 1970 is not a date between the years 1 and 9999"
        case .authorizationNotDetermined(let t): "authorization to share \(t) not determined"
        case .authorizationDenied(let t): "authorization to share \(t) denied"
        case .notAdministrator(let uid): "uid \(uid) may not change authorization"
        case .notOwner(let id): "object \(id) was saved by another source"
        case .objectNotFound(let id): "no object \(id)"
        case .unknownSyncIdentifier(let id): "no reading has the sync identifier \(id)"
        case .memberOfCorrelation(let id): "object \(id) is a correlation member; delete the correlation"
        case .anchorExpired(let a): "anchor \(a.rawValue) expired; full resync required"
        case .diskFull: "disk full: nothing was written"
        case .databaseCorrupt(let m): "database corrupt: \(m)"
        case .databaseBusy: "database busy"
        case .storageUnavailable(let m): "storage unavailable: \(m)"
        case .durabilityNotEnforced(let j, let s): "durability not enforced: journal_mode=\(j) synchronous=\(s), need wal/2"
        case .unsupportedSchema(let m): "unsupported schema: \(m)"
        case let .notAStore(path, reason): "\(path) is not a cuffd store: \(reason); it was left untouched"
        case .storage(let c, let m): "SQLite error \(c): \(m)"
        }
    }
}
