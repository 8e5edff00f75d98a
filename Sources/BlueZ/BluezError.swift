import DBus

/// A failed BlueZ call, typed from the D-Bus error name and, for connections, the reason bluetoothd puts in
/// the message since 5.62 (`src/error.h`, `doc/errors.txt`; docs/reference/BLUEZ-DBUS.md §3, §12). It keeps the original
/// D-Bus error so it can be passed through to cuffd's own clients.
public struct BluezError: Error, Hashable, Sendable, CustomStringConvertible, DBusErrorConvertible {
    public enum Kind: Hashable, Sendable {
        case inProgress, alreadyConnected, notConnected, notReady, alreadyExists, doesNotExist
        case notPermitted, notAuthorized, notSupported, invalidArguments
        case authenticationFailed, authenticationCanceled, authenticationRejected, authenticationTimeout
        case connectionAttemptFailed
        /// `org.bluez.Error.Failed`, with the `le-connection-*` reason when the message carries one.
        case failed(ConnectionFailure?)
        /// The object went away meanwhile (`UnknownObject`): the device was removed or disconnected.
        case objectGone
        /// bluetoothd is not on the bus (`ServiceUnknown`, `NameHasNoOwner`).
        case bluetoothdUnavailable
        /// No reply in time (`NoReply`, `Timeout`).
        case noReply
        /// The bus policy refused the call (`AccessDenied`).
        case accessDenied
        case other
    }

    public let kind: Kind
    public let dbusError: DBusError

    public init(_ error: DBusError) {
        dbusError = error
        kind = Self.kind(of: error)
    }

    public var description: String { dbusError.description }

    /// Whether trying the same call again soon may succeed. bleak retries `le-connection-abort-by-local`
    /// after the `Connected` flap: "This error is often caused by RF interference"
    /// (`bleak/backends/bluezdbus/client.py`, docs/reference/BLUEZ-DBUS.md §3); a timeout or a failed GATT browse is worth
    /// another attempt too; `InProgress` means wait for the attempt under way.
    public var isRetryable: Bool {
        switch kind {
        case .failed(let reason?): reason.isTransient
        case .inProgress, .noReply, .connectionAttemptFailed: true
        default: false
        }
    }

    private static func kind(of error: DBusError) -> Kind {
        switch error.name.rawValue {
        case "org.bluez.Error.InProgress": .inProgress
        case "org.bluez.Error.AlreadyConnected": .alreadyConnected
        case "org.bluez.Error.NotConnected": .notConnected
        case "org.bluez.Error.NotReady": .notReady
        case "org.bluez.Error.AlreadyExists": .alreadyExists
        case "org.bluez.Error.DoesNotExist": .doesNotExist
        case "org.bluez.Error.NotPermitted": .notPermitted
        case "org.bluez.Error.NotAuthorized": .notAuthorized
        case "org.bluez.Error.NotSupported": .notSupported
        case "org.bluez.Error.InvalidArguments": .invalidArguments
        case "org.bluez.Error.AuthenticationFailed": .authenticationFailed
        case "org.bluez.Error.AuthenticationCanceled": .authenticationCanceled
        case "org.bluez.Error.AuthenticationRejected": .authenticationRejected
        case "org.bluez.Error.AuthenticationTimeout": .authenticationTimeout
        case "org.bluez.Error.ConnectionAttemptFailed": .connectionAttemptFailed
        case "org.bluez.Error.Failed": .failed(ConnectionFailure(message: error.message))
        case DBusError.Name.unknownObject.rawValue: .objectGone
        case DBusError.Name.serviceUnknown.rawValue, DBusError.Name.nameHasNoOwner.rawValue: .bluetoothdUnavailable
        case DBusError.Name.noReply.rawValue, DBusError.Name.timeout.rawValue: .noReply
        case DBusError.Name.accessDenied.rawValue: .accessDenied
        default: .other
        }
    }
}

/// Why an LE connection failed, as bluetoothd words it in `org.bluez.Error.Failed` messages since 5.62
/// (`src/error.h` `ERR_LE_CONN_*`).
public enum ConnectionFailure: String, Hashable, Sendable {
    case abortByLocal = "le-connection-abort-by-local"
    case abortByRemote = "le-connection-abort-by-remote"
    case timeout = "le-connection-timeout"
    case refused = "le-connection-refused"
    case keyMissing = "le-connection-key-missing"
    case gattBrowsing = "le-connection-gatt-browsing"
    case linkLayerProtocolError = "le-connection-link-layer-protocol-error"
    case notSupported = "le-connection-not-supported"
    case bad = "le-connection-bad-connection"
    case unknown = "le-connection-unknown"

    init?(message: String) {
        guard let match = Self.allReasons.first(where: { message.contains($0.rawValue) }) else { return nil }
        self = match
    }

    private static let allReasons: [ConnectionFailure] = [
        .abortByLocal, .abortByRemote, .timeout, .refused, .keyMissing, .gattBrowsing, .linkLayerProtocolError, .notSupported, .bad, .unknown,
    ]

    /// Failures that radio conditions or timing cause, worth another attempt; a missing key or a refusal
    /// needs the user (re-pair, wake the cuff).
    public var isTransient: Bool {
        switch self {
        case .abortByLocal, .abortByRemote, .timeout, .gattBrowsing, .linkLayerProtocolError, .unknown: true
        case .refused, .keyMissing, .notSupported, .bad: false
        }
    }
}
