import DurableFiles
import FoundationEssentials
import INIConfiguration

/// The anchor of cuffd's change feed up to which a sink's far side has acknowledged everything (docs/forwarding.md,
/// "The anchor rule"). Written only after the acknowledgement (PostgreSQL's COMMIT, MQTT's PUBACK), and atomically
/// (``DurableFile``): a crash leaves the old anchor or the new one — and the old one only sends some readings again.
public struct AnchorFile: Sendable {
    private let file: DurableFile
    public var path: String { file.path }

    public init(path: String) {
        file = DurableFile(path: path, mode: 0o600)
    }

    /// The stored anchor; 0 (the beginning of the store) when there is no file yet.
    public func read() throws(DurableFileError) -> UInt64 {
        guard let data = try file.read() else { return 0 }
        let text = String(decoding: data, as: UTF8.self).trimmingWhitespace()
        guard let anchor = UInt64(text) else { throw DurableFileError(path: path, problem: "does not hold an anchor (\"\(text.prefix(40))\")") }
        return anchor
    }

    /// Replaces the stored anchor with `anchor`, durably.
    public func write(_ anchor: UInt64) throws(DurableFileError) {
        try file.write("\(anchor)\n".utf8)
    }
}
