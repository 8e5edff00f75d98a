import Foundation

/// The anchor of cuffd's change feed up to which PostgreSQL has acknowledged everything (docs/forwarding.md,
/// "The anchor rule"). Written only after the server's COMMIT returned, and atomically: the new text goes to
/// `PATH.tmp`, is flushed to the disk (fsync(2)), and replaces the file by rename(2), whose effect POSIX makes
/// atomic; the folder is flushed too, so that the rename itself survives a power loss. A crash at any point
/// leaves the old anchor or the new one, never a torn one — and the old one only sends some readings again.
public struct AnchorFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The stored anchor; 0 (the beginning of the store) when there is no file yet.
    public func read() throws(AnchorFileError) -> UInt64 {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw AnchorFileError(path: path, problem: "cannot be read") }
            return 0
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let anchor = UInt64(text) else { throw AnchorFileError(path: path, problem: "does not hold an anchor (\"\(text.prefix(40))\")") }
        return anchor
    }

    /// Replaces the stored anchor with `anchor`, durably.
    public func write(_ anchor: UInt64) throws(AnchorFileError) {
        let temporary = path + ".tmp"
        let bytes = Array("\(anchor)\n".utf8)
        // O_TRUNC without O_EXCL: a .tmp left by a crash is simply written over.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw AnchorFileError(path: temporary, problem: "cannot be created: \(Self.reason())") }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            let why = Self.reason()
            close(descriptor)
            throw AnchorFileError(path: temporary, problem: "cannot be written: \(why)")
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw AnchorFileError(path: path, problem: "cannot be replaced: \(Self.reason())") }
        let folder = open((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw AnchorFileError(path: path, problem: "its folder cannot be opened: \(Self.reason())") }
        defer { close(folder) }
        guard fsync(folder) == 0 else { throw AnchorFileError(path: path, problem: "its folder cannot be flushed: \(Self.reason())") }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}

/// The anchor file cannot be read or written: cuff-forward stops rather than forget where it was.
public struct AnchorFileError: Error, CustomStringConvertible {
    public let path: String
    public let problem: String
    public var description: String { "\(path) \(problem)" }
}
