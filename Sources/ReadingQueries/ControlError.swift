import DBus
import HealthStore

/// The control API's errors (`org.cuffd.Error.*`, docs/dbus-api.md); `cuffctl` maps each to an exit code. Here, beside the
/// reads, because a read answers with them whether cuffd or `cuffctl export --store` makes it; cuffd's own mappings
/// (roles, Gateway errors) are in Daemon (ControlError+Daemon.swift).
public enum ControlError: Error, DBusErrorConvertible {
    /// The caller's role or HealthStore's grants do not allow it.
    case notAuthorized(String)
    case unknownDevice(String)
    /// No reading the caller may change has the sync identifier it named.
    case unknownReading(String)
    case notReady(String)
    case timedOut(String)
    case stopped
    case measurementFailed(String)
    case invalidArguments(String)
    /// A value entered by hand that no cuff could have measured, or a time that cannot be a measurement's.
    case implausible(String)
    /// A change-feed anchor older than the deletions the store still remembers: read everything again.
    case anchorExpired(String)
    /// The device lacks what the request needs (a Heart Rate Control Point).
    case notSupported(String)
    /// The cuff refused pairing beyond the bond (an Omron cuff that took no key); the bond was removed.
    case pairingRefused(String)
    /// The cuff is paired and trusted, but the download of its pairing link stopped before the end (an Omron block
    /// that kept arriving broken); the bond stays.
    case downloadIncomplete(String)
    case failed(String)
    /// A caller with as many store reads waiting or running as one may have (``StoreReaders``).
    case tooManyReads(uid: UInt32, limit: Int)

    public var dbusError: DBusError {
        switch self {
        case .notAuthorized(let why): DBusError("org.cuffd.Error.NotAuthorized", why)
        case .unknownDevice(let what): DBusError("org.cuffd.Error.UnknownDevice", what)
        case .unknownReading(let what): DBusError("org.cuffd.Error.UnknownReading", what)
        case .notReady(let why): DBusError("org.cuffd.Error.NotReady", why)
        case .timedOut(let what): DBusError("org.cuffd.Error.Timeout", what)
        case .stopped: DBusError("org.cuffd.Error.Stopped", "the measurement session was stopped")
        case .measurementFailed(let why): DBusError("org.cuffd.Error.MeasurementFailed", why)
        case .invalidArguments(let why): DBusError("org.cuffd.Error.InvalidArguments", why)
        case .implausible(let why): DBusError("org.cuffd.Error.Implausible", why)
        case .anchorExpired(let why): DBusError("org.cuffd.Error.AnchorExpired", why)
        case .notSupported(let why): DBusError("org.cuffd.Error.NotSupported", why)
        case .pairingRefused(let why): DBusError("org.cuffd.Error.PairingRefused", why)
        case .downloadIncomplete(let why): DBusError("org.cuffd.Error.DownloadIncomplete", why)
        case .failed(let why): DBusError("org.cuffd.Error.Failed", why)
        case let .tooManyReads(uid, limit): DBusError(
            "org.cuffd.Error.LimitsExceeded",
            "uid \(uid) has \(limit) reads of the store waiting or running, the most one user may have at once: ask again once one has answered")
        }
    }

    /// A store error as the API reports it: what the caller may not do is `NotAuthorized`, what it asked
    /// wrongly is `InvalidArguments`, anything else the store's own failure.
    public static func from(_ error: HealthStoreError) -> ControlError {
        switch error {
        case .notAdministrator, .authorizationDenied, .authorizationNotDetermined, .notOwner: .notAuthorized(error.description)
        case .unknownType: .invalidArguments("\(error.description); types: \(TypeGroups.names)")
        case .unsupportedDate: .invalidArguments(error.description)
        case .unknownSyncIdentifier: .unknownReading("\(error.description) (or none you may change); nothing was changed")
        case .anchorExpired: .anchorExpired("\(error.description): start again from anchor 0")
        default: .failed("the store failed: \(error)")
        }
    }
}
