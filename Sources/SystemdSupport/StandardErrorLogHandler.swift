import Logging
import TerminalEscaping

/// A daemon's log as readable lines on stderr — swift-log's `StreamLogHandler` format — with the message, every
/// metadata value and an error's description escaped by ``TerminalText`` (docs/journal.md, "Strings from devices"): a
/// Bluetooth name or Device Information string in a log line neither acts on the terminal that shows it nor forges a
/// line of its own.
public struct StandardErrorLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?

    /// What writes the escaped event: swift-log's stderr stream, or a test's recorder.
    private let output: any LogHandler

    /// Lines on stderr, labelled `label`.
    public init(label: String) {
        self.init(writingTo: StreamLogHandler.standardError(label: label))
    }

    /// Escaped events handed to `output`, which adds no metadata of its own.
    init(writingTo output: any LogHandler) {
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = event.mergedMetadata(metadata, metadataProvider)
        if let error = event.error { merged["error"] = "\(error)" }
        var escaped = event
        escaped.message = Logger.Message(stringLiteral: TerminalText.escaped(event.message.description))
        escaped.metadata = merged.mapValues(Self.escaped)
        escaped.error = nil
        output.log(event: escaped)
    }

    /// A metadata value as escaped text, its nesting kept.
    static func escaped(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case let .string(text): .string(TerminalText.escaped(text))
        case let .stringConvertible(value): .string(TerminalText.escaped(value.description))
        case let .dictionary(values): .dictionary(values.mapValues(escaped))
        case let .array(values): .array(values.map(escaped))
        }
    }
}

extension LogEvent {
    /// The metadata a handler logs with the event: the handler's own, then its provider's, then the event's, a later
    /// value taking a key over.
    func mergedMetadata(_ own: Logger.Metadata, _ provider: Logger.MetadataProvider?) -> Logger.Metadata {
        var merged = own
        if let provided = provider?.get() { merged.merge(provided) { $1 } }
        if let explicit = metadata { merged.merge(explicit) { $1 } }
        return merged
    }
}
