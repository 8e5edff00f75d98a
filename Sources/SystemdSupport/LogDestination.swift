import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Where a daemon's log goes: the journal's native protocol when systemd connected stderr to the journal
/// (`$JOURNAL_STREAM` names stderr's device and inode, docs/reference/BLUEZ-DBUS.md §17), readable stderr otherwise —
/// each with what a device sent escaped where a person reads it (``TerminalText``).
public enum LogDestination: Equatable, Sendable {
    case journal
    case standardError

    /// The destination for this process.
    public static func detect() -> LogDestination {
        detect(journalStream: getenv("JOURNAL_STREAM").map { String(cString: $0) }, standardErrorDescriptor: 2)
    }

    /// The destination given `$JOURNAL_STREAM` and the descriptor of stderr.
    static func detect(journalStream: String?, standardErrorDescriptor: Int32) -> LogDestination {
        guard let journalStream else { return .standardError }
        let parts = journalStream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return .standardError }
        var status = stat()
        guard fstat(standardErrorDescriptor, &status) == 0 else { return .standardError }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode ? .journal : .standardError
    }

    /// Installs the matching swift-log backend for the whole process, messages tagged `identifier`.
    /// `journalSocket` sends to that socket over the native protocol whatever stderr is (tests point it at a
    /// socket of their own).
    public static func bootstrap(identifier: String, level: Logger.Level = .info, journalSocket: String? = nil) {
        let writer = journalSocket.map { JournalWriter(socketPath: $0) } ?? (detect() == .journal ? JournalWriter() : nil)
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = writer.map { JournalLogHandler(label: label, identifier: identifier, writer: $0) }
                ?? StandardErrorLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
