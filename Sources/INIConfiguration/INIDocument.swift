/// The syntax of systemd-style configuration files (systemd.syntax(7)): `[Section]` headers, `Key=Value`
/// lines, `#` and `;` comment lines, blank lines. Keys keep their line numbers so that every later error
/// can name the line.
public struct INIDocument: Sendable {
    public struct Entry: Sendable {
        public let key: String
        public let value: String
        public let line: Int
    }

    public struct Section: Sendable {
        /// The text between the brackets (`Store`, `Cuff C4:F3:12:53:F2:C9`).
        public let header: String
        public let line: Int
        public var entries: [Entry]
    }

    public private(set) var sections: [Section] = []

    public init(parsing text: String, file: String) throws(ConfigurationError) {
        // `\.isNewline`, not "\n": a CRLF line end is one Character in Swift, so splitting on "\n" would not end
        // a line written on Windows.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    throw ConfigurationError(file: file, line: number, message: "a section header is [Name]")
                }
                sections.append(Section(header: String(line.dropFirst().dropLast()).trimmingWhitespace(), line: number, entries: []))
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigurationError(file: file, line: number, message: "expected Key=Value, found \"\(line)\"")
            }
            guard !sections.isEmpty else {
                throw ConfigurationError(file: file, line: number, message: "\"\(line)\" comes before any [Section]")
            }
            let key = String(line[..<equals]).trimmingWhitespace()
            guard !key.isEmpty else { throw ConfigurationError(file: file, line: number, message: "a key is missing before \"=\"") }
            let value = String(line[line.index(after: equals)...]).trimmingWhitespace()
            sections[sections.count - 1].entries.append(Entry(key: key, value: value, line: number))
        }
    }
}

extension StringProtocol {
    /// The text without the whitespace at either end.
    public func trimmingWhitespace() -> String {
        let characters = drop(while: \.isWhitespace)
        return String(characters.reversed().drop(while: \.isWhitespace).reversed())
    }
}
