#if canImport(Glibc)
import Glibc
#endif

/// A replacement of a ``DurableFile`` under way: the new content is written, in as many parts as the caller has, to
/// a temporary file `.NAME.XXXXXX` beside the file (XXXXXX random, created exclusively and not through a symbolic
/// link, so that nothing planted at a guessed name is written through), which ``commit()`` makes the file and
/// ``discard()`` — or the replacement's end without a commit — removes.
///
/// Leftovers: a crash leaves the temporary file of the write it interrupted. Each writer holds an exclusive lock
/// (flock(2)) on its temporary file from its creation until it is renamed, and the kernel lets go of the lock when
/// the process dies; so a new replacement first removes each `.NAME.XXXXXX` beside the file that it can lock — a
/// dead writer's — and leaves those of writers still at work (``TemporaryFiles``). A writer can lock its file only
/// after creating it, so once locked it checks that the file still has a name (a remover may have taken it in
/// between) and starts again with another if not.
public final class FileReplacement {
    public let file: DurableFile
    /// Where the content goes until ``commit()``.
    public let temporaryPath: String
    /// The temporary file, open for writing and locked; -1 once committed or discarded.
    private var descriptor: Int32

    /// Creates the temporary file beside `file`, with `file`'s mode, after removing what crashed writers left.
    public init(replacing file: DurableFile) throws(DurableFileError) {
        self.file = file
        let names = TemporaryFiles(of: file.path)
        names.removeAbandoned()
        (descriptor, temporaryPath) = try names.create(mode: file.mode)
    }

    deinit { discard() }

    /// Appends `bytes` to the new content, in as many write(2) calls as the kernel needs.
    public func write(_ bytes: some Collection<UInt8>) throws(DurableFileError) {
        let bytes = Array(bytes)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw DurableFileError(path: file.path, problem: "cannot be written", code: count < 0 ? errno : EIO) }
            written += count
        }
    }

    /// Makes the new content the file's: flushed to the disk, renamed over the file, the folder flushed. On failure
    /// before the rename the file is as it was (and the temporary file is removed by ``discard()``).
    public func commit() throws(DurableFileError) {
        guard fsync(descriptor) == 0 else { throw DurableFileError(path: file.path, problem: "cannot be written", code: errno) }
        guard rename(temporaryPath, file.path) == 0 else { throw DurableFileError(path: file.path, problem: "cannot be replaced", code: errno) }
        // Closed only now: the lock keeps removers off the temporary file until it has become the file. What close(2)
        // could still report was already reported by fsync.
        close(descriptor)
        descriptor = -1
        let folder = parentFolder(of: file.path)
        let directory = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw DurableFileError(path: file.path, problem: "was replaced, but its folder cannot be opened to flush it", code: errno) }
        defer { close(directory) }
        // EINVAL: a file system that cannot flush a folder (fsync(2)); the rename is then as durable as it gets.
        guard fsync(directory) == 0 || errno == EINVAL else {
            throw DurableFileError(path: file.path, problem: "was replaced, but its folder cannot be flushed", code: errno)
        }
    }

    /// Gives up the replacement: the temporary file is removed and the file stays as it was. Nothing once committed.
    public func discard() {
        guard descriptor >= 0 else { return }
        unlink(temporaryPath)
        close(descriptor)
        descriptor = -1
    }
}
