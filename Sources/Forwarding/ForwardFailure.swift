import DurableFiles
import INIConfiguration

/// Why cuff-forward stopped: one line for the log and an exit status from sysexits.h, each failure its own, so
/// that systemd (`RestartPreventExitStatus=`) and a person see which it was (docs/forwarding.md, "Exit status").
/// Everything retrying can fix — PostgreSQL or cuffd away for a while — is retried instead, never an exit.
public struct ForwardFailure: Error, CustomStringConvertible {
    public let message: String
    public let status: Int32

    public var description: String { message }

    public init(message: String, status: Int32) {
        self.message = message
        self.status = status
    }

    /// The failure `error` stands for.
    public init(_ error: any Error) {
        switch error {
        case let failure as ForwardFailure: self = failure
        case let error as ConfigurationError: self.init(message: error.description, status: 78)  // EX_CONFIG
        case let error as FeedError:
            switch error {
            case .notAuthorized: self.init(message: error.description, status: 77)  // EX_NOPERM
            case .malformed: self.init(message: error.description, status: 65)  // EX_DATAERR
            case .busLost, .cuffdUnavailable, .anchorExpired: self.init(message: error.description, status: 69)  // EX_UNAVAILABLE
            }
        case let error as GatewayRegistration.NotRegistered: self.init(message: error.description, status: 77)  // EX_NOPERM
        case let error as TemporaryTablesRefused: self.init(message: error.description, status: 77)  // EX_NOPERM
        case let error as SchemaMismatch: self.init(message: error.description, status: 76)  // EX_PROTOCOL
        // A state file that cannot be read or written: cuff-forward stops rather than forget where it was. One of the
        // wrong kind (a symbolic link) is not retried.
        case let error as DurableFileError: self.init(message: "the state file \(error)", status: error.isWrongKind ? 73 : 74)  // EX_CANTCREAT, EX_IOERR
        case let error as PostgresError: self.init(message: "PostgreSQL: \(error)", status: 69)  // EX_UNAVAILABLE
        case let error as SinkUnreachable: self.init(error.underlying)
        case let error as HTTPClient.Unavailable: self.init(message: error.description, status: 72)  // EX_OSFILE
        default: self.init(message: "\(error)", status: 70)  // EX_SOFTWARE
        }
    }
}
