#if canImport(Glibc)
import Glibc
#endif

/// A durable file that cannot be read or written: the file's path and what went wrong, with the system's words for
/// the cause (strerror(3)) when a call failed.
public struct DurableFileError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let problem: String
    public var description: String { "\(path) \(problem)" }

    /// `problem` as a person reads it after the path: "does not hold an anchor", "cannot be replaced: …".
    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    /// A system call failed with `code` (errno): `problem`, then the cause in the system's words.
    public init(path: String, problem: String, code: Int32) {
        self.init(path: path, problem: "\(problem): \(String(cString: strerror(code)))")
    }
}
