#if canImport(Glibc)
import Glibc
#endif

/// `sd_notify(3)` without libsystemd: readiness, status, stopping and watchdog pings sent as
/// newline-separated `KEY=VALUE` datagrams to `$NOTIFY_SOCKET` (docs/reference/BLUEZ-DBUS.md §16; the shape of
/// bluez `src/shared/mainloop-notify.c`). Outside systemd (no `NOTIFY_SOCKET`) every call does nothing.
public final class ServiceNotifier: Sendable {
    private let socket: UnixDatagramSocket?

    /// The watchdog period systemd asked for (`$WATCHDOG_USEC`, only when `$WATCHDOG_PID` is unset or
    /// names this process); ping at half of it, from the loop whose liveness the ping proves.
    public let watchdogInterval: Duration?

    /// A notifier for this process's environment.
    public convenience init() {
        self.init(environment: ServiceNotifier.processEnvironment(), processID: Int(getpid()))
    }

    /// A notifier for an explicit environment (tests).
    public init(environment: [String: String], processID: Int) {
        socket = environment["NOTIFY_SOCKET"].flatMap { UnixDatagramSocket(destination: $0) }
        let forThisProcess = environment["WATCHDOG_PID"].map { Int($0) == processID } ?? true
        if forThisProcess, let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 {
            watchdogInterval = .microseconds(microseconds)
        } else {
            watchdogInterval = nil
        }
    }

    /// True under a service manager that listens.
    public var isActive: Bool { socket != nil }

    /// How often to send ``watchdog()``: half the watchdog period (`WATCHDOG_TRIGGER_FREQ 2` in bluez).
    public var watchdogPingInterval: Duration? { watchdogInterval.map { $0 / 2 } }

    /// `READY=1` with a status line.
    public func ready(status: String) { send(["READY=1", "STATUS=" + Self.oneLine(status)]) }

    /// `STATUS=…`: one line for `systemctl status`.
    public func status(_ text: String) { send(["STATUS=" + Self.oneLine(text)]) }

    /// `STOPPING=1` when graceful shutdown starts.
    public func stopping(status: String) { send(["STOPPING=1", "STATUS=" + Self.oneLine(status)]) }

    /// `WATCHDOG=1`.
    public func watchdog() { send(["WATCHDOG=1"]) }

    /// `EXTEND_TIMEOUT_USEC=…` around a long start-up step (a store migration).
    public func extendTimeout(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        send(["EXTEND_TIMEOUT_USEC=\(seconds * 1_000_000 + attoseconds / 1_000_000_000_000)"])
    }

    private func send(_ assignments: [String]) {
        _ = socket?.send(Array(assignments.joined(separator: "\n").utf8))
    }

    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
