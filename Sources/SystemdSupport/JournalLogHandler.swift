import Logging
import TerminalEscaping

/// A swift-log handler that writes structured entries to the journal's native socket: `MESSAGE`,
/// `PRIORITY`, `SYSLOG_IDENTIFIER`, `CODE_FILE`/`CODE_LINE`/`CODE_FUNC`, and every metadata key as a field
/// named by ``JournalFieldName`` (docs/reference/BLUEZ-DBUS.md §17). It never sets `UNIT=`, which belongs to the service
/// manager. When the journal cannot take an entry, the entry goes to stderr instead (``StandardErrorLogHandler``).
///
/// `MESSAGE` is the line `journalctl` prints for a person, so it is escaped by ``TerminalText`` like a line on stderr:
/// a device's name or Device Information string in it acts on no terminal. The other fields are data, kept byte for
/// byte as logged (a device's exact string for `journalctl -o json`; the native protocol carries any bytes), and
/// `journalctl` shows a field with control characters as a blob unless told `--all` (docs/journal.md, "Strings from
/// devices").
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?

    private let identifier: String
    private let writer: JournalWriter
    private let fallback: StandardErrorLogHandler

    /// A handler writing as `identifier` through `writer`.
    public init(label: String, identifier: String, writer: JournalWriter) {
        self.identifier = identifier
        self.writer = writer
        fallback = StandardErrorLogHandler(label: label)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var entry = JournalEntry()
        entry.append("MESSAGE", TerminalText.escaped(event.message.description))
        entry.append("PRIORITY", String(Self.priority(event.level)))
        entry.append("SYSLOG_IDENTIFIER", identifier)
        entry.append("CODE_FILE", event.file)
        entry.append("CODE_LINE", String(event.line))
        entry.append("CODE_FUNC", event.function)
        if let error = event.error { entry.append("ERROR", "\(error)") }
        let merged = event.mergedMetadata(metadata, metadataProvider)
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            guard let name = JournalFieldName.mapping(key) else { continue }
            entry.append(name, "\(value)")
        }
        if writer.write(entry) != 0 {
            var unsent = event
            unsent.metadata = merged
            fallback.log(event: unsent)
        }
    }

    /// swift-log levels → syslog priorities: trace/debug 7, info 6, notice 5, warning 4, error 3, critical 2.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
