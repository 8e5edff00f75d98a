import ForwardingStatus
import FoundationEssentials
import Glibc

/// A small file replaced whole and durably: the new bytes go to `PATH.tmp`, are flushed to the disk (fsync(2)), and
/// replace the file by rename(2), whose effect POSIX makes atomic; the folder is flushed too, so that the rename
/// itself survives a power loss. A crash at any point leaves the old content or the new, never a torn file.
/// The anchor file (``AnchorFile``) and the MQTT sink's record of users (``PublishedUsers``) are kept so.
struct DurableFile: Sendable {
    let path: String

    /// The file's bytes; nil when there is no file yet.
    func read() throws(DurableFileError) -> Data? {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw DurableFileError(path: path, problem: "cannot be read") }
            return nil
        }
        return data
    }

    /// Replaces the file's content with `bytes`, durably.
    func write(_ bytes: some Collection<UInt8>) throws(DurableFileError) {
        let temporary = path + ".tmp"
        let bytes = Array(bytes)
        // O_TRUNC without O_EXCL: a .tmp left by a crash is simply written over.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DurableFileError(path: temporary, problem: "cannot be created: \(Self.reason())") }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            let why = Self.reason()
            close(descriptor)
            throw DurableFileError(path: temporary, problem: "cannot be written: \(why)")
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw DurableFileError(path: path, problem: "cannot be replaced: \(Self.reason())") }
        let folder = parentFolder(of: path)
        let directory = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw DurableFileError(path: path, problem: "its folder cannot be opened: \(Self.reason())") }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw DurableFileError(path: path, problem: "its folder cannot be flushed: \(Self.reason())") }
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}

/// A state file of cuff-forward cannot be read or written: it stops rather than forget where it was (exit 74).
public struct DurableFileError: Error, CustomStringConvertible {
    public let path: String
    public let problem: String
    public var description: String { "\(path) \(problem)" }
}
