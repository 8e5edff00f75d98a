import DBus
import Gateway
import HealthStore

/// The control API's errors (`org.cuffd.Error.*`, docs/dbus-api.md); `cuffctl` maps each to an exit code.
enum ControlError: Error, DBusErrorConvertible {
    /// The caller's role or HealthStore's grants do not allow it.
    case notAuthorized(String)
    case unknownDevice(String)
    case notReady(String)
    case timedOut(String)
    case stopped
    case measurementFailed(String)
    case invalidArguments(String)
    /// A change-feed anchor older than the deletions the store still remembers: read everything again.
    case anchorExpired(String)
    /// The device lacks what the request needs (a Heart Rate Control Point).
    case notSupported(String)
    /// The cuff refused pairing beyond the bond (an Omron cuff that took no key); the bond was removed.
    case pairingRefused(String)
    case failed(String)
    /// A caller with as many store reads waiting or running as one may have (``StoreReaders``).
    case tooManyReads(uid: UInt32, limit: Int)

    var dbusError: DBusError {
        switch self {
        case .notAuthorized(let why): DBusError("org.cuffd.Error.NotAuthorized", why)
        case .unknownDevice(let what): DBusError("org.cuffd.Error.UnknownDevice", what)
        case .notReady(let why): DBusError("org.cuffd.Error.NotReady", why)
        case .timedOut(let what): DBusError("org.cuffd.Error.Timeout", what)
        case .stopped: DBusError("org.cuffd.Error.Stopped", "the measurement session was stopped")
        case .measurementFailed(let why): DBusError("org.cuffd.Error.MeasurementFailed", why)
        case .invalidArguments(let why): DBusError("org.cuffd.Error.InvalidArguments", why)
        case .anchorExpired(let why): DBusError("org.cuffd.Error.AnchorExpired", why)
        case .notSupported(let why): DBusError("org.cuffd.Error.NotSupported", why)
        case .pairingRefused(let why): DBusError("org.cuffd.Error.PairingRefused", why)
        case .failed(let why): DBusError("org.cuffd.Error.Failed", why)
        case let .tooManyReads(uid, limit): DBusError(
            "org.cuffd.Error.LimitsExceeded",
            "uid \(uid) has \(limit) reads of the store waiting or running, the most one user may have at once: ask again once one has answered")
        }
    }

    /// A caller whose role is below what the call needs (``AccessPolicy``).
    static func lacksRole(uid: UInt32, needs: AccessPolicy.Role) -> ControlError {
        .notAuthorized("uid \(uid) may not do this; it needs the \(needs == .administrator ? "cuffd-admin" : "cuffd") group")
    }

    /// A Gateway error as the API reports it; BlueZ's own errors pass through by name.
    static func from(_ error: GatewayError) -> any DBusErrorConvertible {
        switch error {
        case .bluetoothUnavailable(let why): ControlError.notReady(why)
        case .unknownCuff, .noCuffs: ControlError.unknownDevice(error.description)
        case .timedOut: ControlError.timedOut(error.description)
        case .busy: ControlError.failed(error.description)
        case .refused: ControlError.pairingRefused(error.description)
        case .bluez(let bluez): bluez
        case .unsupported: ControlError.notSupported(error.description)
        }
    }

    /// A store error as the API reports it: what the caller may not do is `NotAuthorized`, what it asked
    /// wrongly is `InvalidArguments`, anything else the store's own failure.
    static func from(_ error: HealthStoreError) -> ControlError {
        switch error {
        case .notAdministrator, .authorizationDenied, .authorizationNotDetermined, .notOwner: .notAuthorized(error.description)
        case .unknownType: .invalidArguments("\(error.description); types: \(ControlAPI.typeNames)")
        case .unsupportedDate: .invalidArguments(error.description)
        case .anchorExpired: .anchorExpired("\(error.description): start again from anchor 0")
        default: .failed("the store failed: \(error)")
        }
    }
}
