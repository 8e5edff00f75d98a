import Glibc
import Synchronization

/// cuff-forward's log: one line per event on stderr, with the sd-daemon(3) priority prefix (`<3>` error,
/// `<4>` warning, `<5>` notice, `<6>` info) that journald reads from a service's stderr (systemd.exec(5), `SyslogLevelPrefix=`).
/// A failing server is logged when the state changes, not at every attempt: ``state(_:)``.
public final class ForwardLog: Sendable {
    public enum Priority: Int, Sendable {
        case error = 3, warning = 4, notice = 5, info = 6
    }

    private let states = Mutex<[String: String]>([:])

    public init() {}

    public func log(_ priority: Priority, _ message: String) {
        let line = Array("<\(priority.rawValue)>\(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// Logs `message` only when `subject`'s state (`kind`) differs from the last one logged for it.
    func state(_ subject: String, _ kind: String, _ priority: Priority, _ message: String) {
        let changed = states.withLock { states in
            defer { states[subject] = kind }
            return states[subject] != kind
        }
        if changed { log(priority, message) }
    }
}
