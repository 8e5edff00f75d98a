import ArgumentParser
import DBus
import TerminalEscaping

/// `--bus ADDRESS`, shared by every command that talks to cuffd.
struct BusOptions: ParsableArguments {
    @Option(help: "The bus cuffd is on (default: the system bus; DBUS_SYSTEM_BUS_ADDRESS is honoured).")
    var bus: String?
}

/// cuffctl's side of `org.cuffd.Gateway1` (docs/dbus-api.md): typed calls, and every D-Bus error turned into
/// one line on stderr and its documented exit code (docs/cuffctl.md).
struct CuffdConnection {
    static let name = "org.cuffd.Gateway1"
    static let path: DBusObjectPath = "/org/cuffd/Gateway1"
    static let interface = "org.cuffd.Gateway1"

    let connection: DBusConnection

    init(connection: DBusConnection) {
        self.connection = connection
    }

    init(_ options: BusOptions) throws {
        do {
            connection = try DBusConnection.open(options.bus.map { .address($0) } ?? .system, label: "cuffctl")
        } catch {
            throw CuffctlFailure.unavailable("cannot connect to the bus: \(error.message)")
        }
    }

    func call(_ member: String, _ arguments: [DBusValue] = [], timeout: Duration = .seconds(25)) async throws -> [DBusValue] {
        do {
            return try await connection.call(Self.name, Self.path, Self.interface, member, arguments, timeout: timeout)
        } catch {
            throw CuffctlFailure(error)
        }
    }

    func property(_ name: String, of path: DBusObjectPath = Self.path, interface: String = Self.interface) async throws -> DBusValue {
        do {
            let reply = try await connection.call(Self.name, path, StandardInterface.properties, "Get", [.string(interface), .string(name)])
            guard case .variant(let value)? = reply.first else { throw CuffctlFailure.failed("Get \(name) answered \(reply)") }
            return value
        } catch let error as DBusError {
            throw CuffctlFailure(error)
        }
    }

    /// Every object cuffd publishes, with its properties.
    func managedObjects() async throws -> [DBusObjectPath: [String: DBusProperties]] {
        do {
            let reply = try await connection.call(Self.name, Self.path, StandardInterface.objectManager, "GetManagedObjects")
            return try reply.first?.decode() ?? [:]
        } catch let error as DBusError {
            throw CuffctlFailure(error)
        }
    }

    /// The signals matching any of `rules`, in the order they arrived.
    func signals(_ rules: MatchRule...) async throws -> AsyncStream<DBusMessage> {
        do {
            return try await connection.signals(matchingAny: rules)
        } catch {
            throw CuffctlFailure(error)
        }
    }
}

/// A failure cuffctl reports: one line on stderr and its exit code.
struct CuffctlFailure: Error {
    let message: String
    let status: ExitCode

    static func unavailable(_ message: String) -> CuffctlFailure { CuffctlFailure(message: message, status: ExitStatus.unavailable) }
    static func failed(_ message: String) -> CuffctlFailure { CuffctlFailure(message: message, status: .failure) }

    init(message: String, status: ExitCode) {
        self.message = message
        self.status = status
    }

    /// The exit code a D-Bus error stands for (docs/cuffctl.md).
    init(_ error: DBusError) {
        switch error.name.rawValue {
        case DBusError.Name.serviceUnknown.rawValue, DBusError.Name.nameHasNoOwner.rawValue, DBusError.Name.disconnected.rawValue:
            self.init(message: "cuffd is not running (systemctl status cuffd)", status: ExitStatus.unavailable)
        case "org.cuffd.Error.NotReady", "org.cuffd.Error.NotSupported":
            self.init(message: error.message, status: ExitStatus.unavailable)
        case DBusError.Name.accessDenied.rawValue, "org.cuffd.Error.NotAuthorized":
            self.init(message: "permission denied: \(error.message)", status: ExitStatus.permissionDenied)
        case "org.cuffd.Error.UnknownDevice", "org.cuffd.Error.UnknownReading", "org.bluez.Error.DoesNotExist":
            self.init(message: error.message, status: ExitStatus.unknownDevice)
        case "org.cuffd.Error.Timeout", DBusError.Name.noReply.rawValue, DBusError.Name.timeout.rawValue:
            self.init(message: "timed out: \(error.message)", status: ExitStatus.timeout)
        case "org.bluez.Error.AuthenticationFailed", "org.bluez.Error.AuthenticationRejected":
            self.init(message: "the cuff refused pairing (\(error.message)): check the passkey it displays, and that it is in pairing mode", status: ExitStatus.pairingRefused)
        case "org.cuffd.Error.PairingRefused":
            self.init(message: error.message, status: ExitStatus.pairingRefused)
        case "org.cuffd.Error.DownloadIncomplete":
            self.init(message: "warning: \(error.message)", status: ExitStatus.downloadIncomplete)
        case "org.cuffd.Error.Implausible":
            self.init(message: error.message, status: ExitStatus.malformedPayload)
        case "org.cuffd.Error.InvalidArguments", DBusError.Name.invalidArgs.rawValue:
            self.init(message: error.message, status: ExitStatus.usage)
        default:
            self.init(message: error.description, status: .failure)
        }
    }
}

/// Runs a command body; a ``CuffctlFailure`` becomes its line on stderr and its exit code — escaped, as cuffd's
/// errors may quote what a cuff sent (an Omron model cuffd cannot read).
func reportingFailures(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let failure as CuffctlFailure {
        printToStandardError("cuffctl: \(TerminalText.escaped(failure.message))")
        throw failure.status
    }
}
