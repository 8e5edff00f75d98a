import DBus
import Gateway
import ReadingQueries

/// How cuffd reports what only the daemon meets: a caller's role, a read's wait, and the Gateway's errors.
extension ControlError {
    /// A paced read that waited longer than one may (``ReadAdmission/Limits-swift.struct/maximumWait``): the same
    /// name as a uid over its bound, ``tooManyReads(uid:limit:)`` (docs/dbus-api.md, "Reads").
    static func waitedTooLong(uid: UInt32, seconds: Double) -> DBusError {
        DBusError("org.cuffd.Error.LimitsExceeded", "uid \(uid)'s read of the store waited \(Int(seconds)) s for its turn behind other users' reads, the longest one may: ask again later")
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
        case .downloadStopped: ControlError.downloadIncomplete(error.description)
        case .bluez(let bluez): bluez
        case .unsupported: ControlError.notSupported(error.description)
        }
    }
}
