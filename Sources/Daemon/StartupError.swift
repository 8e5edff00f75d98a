import INIConfiguration

/// Why cuffd could not start, each with its own exit status (sysexits.h values; docs/cuffd.md) so that
/// systemd and a person see which step failed. A bad configuration is not fixed by restarting
/// (`RestartPreventExitStatus=78` in the unit).
public enum StartupError: Error, CustomStringConvertible {
    case configuration(ConfigurationError)
    case store(path: String, reason: String)
    /// `--rewrite-store` found the store open in another process.
    case storeInUse(String)
    case bus(String)
    case nameTaken
    case nameDenied(String)
    case bluetooth(String)

    public var exitStatus: Int32 {
        switch self {
        case .configuration: 78  // EX_CONFIG
        case .store: 73  // EX_CANTCREAT
        case .bus, .bluetooth: 69  // EX_UNAVAILABLE
        case .nameTaken, .storeInUse: 75  // EX_TEMPFAIL: another cuffd still runs
        case .nameDenied: 77  // EX_NOPERM: the bus policy does not let this user own the name
        }
    }

    public var description: String {
        switch self {
        case .configuration(let error): "\(error)"
        case let .store(path, reason): "cannot open the store \(path): \(reason)"
        case .storeInUse(let path): "the store \(path) is open in another process: stop cuffd (systemctl stop cuffd) and what reads the store first"
        case .bus(let reason): "cannot connect to the bus: \(reason)"
        case .nameTaken: "\(ControlAPI.busName) is already owned on this bus: is another cuffd running?"
        case .nameDenied(let reason): "the bus policy does not let this user own \(ControlAPI.busName) (is /usr/share/dbus-1/system.d/org.cuffd.Gateway1.conf installed, and cuffd running as user cuffd?): \(reason)"
        case .bluetooth(let reason): "cannot start the BlueZ client: \(reason)"
        }
    }
}
