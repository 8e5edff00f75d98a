#if canImport(Glibc)
import Glibc
#endif

/// The temporary files of a ``DurableFile``'s replacements: `.NAME.XXXXXX` in the file's folder, XXXXXX six random
/// letters and digits (as mkstemp(3) names them). How they are created, locked and, once abandoned, removed is
/// ``FileReplacement``'s note.
struct TemporaryFiles {
    /// The file replaced.
    let target: String
    /// The folder as a prefix of paths in it: `/var/lib/cuff-forward/`, or `` for the current folder.
    let prefix: String
    /// `.NAME.`, the start of every temporary file's name.
    let stem: String

    static let suffixLength = 6
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    init(of path: String) {
        target = path
        let slash = path.lastIndex(of: "/")
        prefix = slash.map { String(path[...$0]) } ?? ""
        stem = "." + (slash.map { String(path[path.index(after: $0)...]) } ?? path) + "."
    }

    /// Whether `name` (an entry of the folder) is one of these temporary files.
    func isTemporary(_ name: String) -> Bool {
        guard name.hasPrefix(stem) else { return false }
        let suffix = name.utf8.dropFirst(stem.utf8.count)
        return suffix.count == Self.suffixLength && suffix.allSatisfy(Self.alphabet.contains)
    }

    /// A new temporary file, open for writing, locked, with `mode`: its descriptor and path.
    func create(mode: mode_t) throws(DurableFileError) -> (Int32, String) {
        for _ in 0 ..< 100 {
            let path = prefix + stem + String(decoding: (0 ..< Self.suffixLength).map { _ in Self.alphabet.randomElement()! }, as: UTF8.self)
            // 0600 until `mode` is set: never more open than wanted, whatever the umask.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                if errno == EEXIST { continue }
                throw DurableFileError(path: target, problem: "cannot be replaced: a temporary file beside it cannot be created", code: errno)
            }
            var locked = flock(descriptor, LOCK_EX)
            while locked != 0 && errno == EINTR { locked = flock(descriptor, LOCK_EX) }
            var status = stat()
            guard locked == 0, fstat(descriptor, &status) == 0 else {
                let code = errno
                unlink(path)
                close(descriptor)
                throw DurableFileError(path: target, problem: "cannot be replaced: its temporary file cannot be locked", code: code)
            }
            // Removed as abandoned between its creation and the lock: another name.
            guard status.st_nlink > 0 else {
                close(descriptor)
                continue
            }
            guard fchmod(descriptor, mode) == 0 else {
                let code = errno
                unlink(path)
                close(descriptor)
                throw DurableFileError(path: target, problem: "cannot be replaced: the mode of its temporary file cannot be set", code: code)
            }
            return (descriptor, path)
        }
        throw DurableFileError(path: target, problem: "cannot be replaced: no name for a temporary file beside it was free", code: EEXIST)
    }

    /// Removes every temporary file no writer holds: those of writers that crashed. Best effort: one that cannot be
    /// opened or locked stays (a writer still at work, or not this process's to remove), and the write goes on.
    func removeAbandoned() {
        guard let folder = opendir(prefix.isEmpty ? "." : prefix) else { return }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if isTemporary(name) { names.append(name) }
        }
        closedir(folder)
        for name in names { removeIfAbandoned(prefix + name) }
    }

    private func removeIfAbandoned(_ path: String) {
        // Not through a symbolic link, and without waiting on a FIFO: only a regular file is a temporary file.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var opened = stat()
        var named = stat()
        guard fstat(descriptor, &opened) == 0, opened.st_mode & S_IFMT == S_IFREG, flock(descriptor, LOCK_EX | LOCK_NB) == 0,
              lstat(path, &named) == 0, named.st_ino == opened.st_ino, named.st_dev == opened.st_dev
        else { return }
        unlink(path)
    }
}
