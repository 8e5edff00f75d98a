#if canImport(Glibc)
import Glibc
#endif

/// A file replaced whole and durably, the one way cuffd's programs keep a small file that must survive a crash
/// (cuff-forward's anchor and MQTT users, its status file, cuffd's cuff registry, `cuffctl export --output`): the new
/// content goes to a temporary file beside it, created with the file's mode, is flushed to the disk (fsync(2)), and
/// replaces the file by rename(2), which POSIX makes atomic; then the folder is flushed too, so that the rename itself
/// survives a power loss. A crash at any point leaves the old content or the new, never a torn or missing file; the
/// temporary file a crash leaves is removed by the next write (``FileReplacement``).
///
/// No Foundation: cuff-forward links FoundationEssentials only (docs/architecture.md).
public struct DurableFile: Sendable {
    public let path: String
    /// The permissions every write leaves the file with, whatever the umask.
    public let mode: mode_t

    public init(path: String, mode: mode_t) {
        self.path = path
        self.mode = mode
    }

    /// The file's bytes; nil when there is no file.
    public func read() throws(DurableFileError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw DurableFileError(path: path, problem: "cannot be opened", code: errno)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw DurableFileError(path: path, problem: "cannot be read", code: errno) }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// Replaces the file's content with `bytes`, durably.
    public func write(_ bytes: some Collection<UInt8>) throws(DurableFileError) {
        let replacement = try FileReplacement(replacing: self)
        try replacement.write(bytes)
        try replacement.commit()
    }
}
