/// A configuration file that cannot be used: the file, the line, and what is wrong there.
public struct ConfigurationError: Error, Equatable, CustomStringConvertible {
    public let file: String
    /// 1-based; 0 when the problem is the file as a whole.
    public let line: Int
    public let message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `cuffd.conf:12: unknown key "Colour" in [Store]`, the shape compilers and systemd use.
    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
