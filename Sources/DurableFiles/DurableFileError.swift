#if canImport(Glibc)
import Glibc
#endif

/// A durable file that cannot be read or written: the file's path and what went wrong, with the system's words for
/// the cause (strerror(3)) when a call failed.
public struct DurableFileError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let problem: String
    /// Whether the path names the wrong kind of file — a symbolic link, or a folder, device or FIFO where a regular
    /// file belongs —, which was refused and left as it is rather than read through or replaced: nothing a retry mends.
    public let isWrongKind: Bool
    public var description: String { "\(path) \(problem)" }

    /// `problem` as a person reads it after the path: "does not hold an anchor", "cannot be replaced: …".
    public init(path: String, problem: String) {
        self.init(path: path, problem: problem, isWrongKind: false)
    }

    /// A system call failed with `code` (errno): `problem`, then the cause in the system's words.
    public init(path: String, problem: String, code: Int32) {
        self.init(path: path, problem: "\(problem): \(String(cString: strerror(code)))")
    }

    /// `path` is of the kind `mode` (its `st_mode`) says rather than `expected`, so it `cannot` be used: "cannot be
    /// read: it is a symbolic link, not a regular file; it was left as it is".
    public init(path: String, cannot: String, mode: mode_t, expected: String = "a regular file") {
        self.init(path: path, problem: "\(cannot): it is \(FileKind.name(of: mode)), not \(expected); it was left as it is", isWrongKind: true)
    }

    private init(path: String, problem: String, isWrongKind: Bool) {
        self.path = path
        self.problem = problem
        self.isWrongKind = isWrongKind
    }
}
