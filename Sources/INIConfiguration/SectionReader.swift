/// Reads typed values from one section, naming the line of anything it refuses.
public struct SectionReader {
    public let section: INIDocument.Section
    public let file: String

    public init(section: INIDocument.Section, file: String) {
        self.section = section
        self.file = file
    }

    public func fail(_ line: Int, _ message: String) -> ConfigurationError {
        ConfigurationError(file: file, line: line, message: message)
    }

    /// Refuses keys the section does not have, and keys given twice.
    public func allow(_ keys: [String], orMatching pattern: ((String) -> Bool)? = nil) throws(ConfigurationError) {
        var seen: Set<String> = []
        for entry in section.entries {
            guard keys.contains(entry.key) || pattern?(entry.key) == true else {
                throw fail(entry.line, "unknown key \"\(entry.key)\" in [\(section.header)]; expected \(keys.joined(separator: ", "))")
            }
            guard seen.insert(entry.key).inserted else { throw fail(entry.line, "\"\(entry.key)\" is set twice in [\(section.header)]") }
        }
    }

    public func entry(_ key: String) -> INIDocument.Entry? { section.entries.first { $0.key == key } }

    public func string(_ key: String) -> String? { entry(key).map(\.value).flatMap { $0.isEmpty ? nil : $0 } }

    public func path(_ key: String) throws(ConfigurationError) -> String? {
        guard let entry = entry(key) else { return nil }
        guard entry.value.hasPrefix("/") else { throw fail(entry.line, "\(key) must be an absolute path, not \"\(entry.value)\"") }
        return entry.value
    }

    /// A span of whole seconds within `range`: `90`, `90s` or `5min` (systemd.time(7)'s units that a span this coarse
    /// needs).
    public func seconds(_ key: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let entry = entry(key) else { return nil }
        let (number, factor) = entry.value.hasSuffix("min") ? (entry.value.dropLast(3), 60)
            : entry.value.hasSuffix("s") ? (entry.value.dropLast(), 1) : (Substring(entry.value), 1)
        guard let count = Int(number), range.contains(count * factor) else {
            throw fail(entry.line, "\(key) must be \(range.lowerBound) to \(range.upperBound) seconds (like 60, 60s or 5min), not \"\(entry.value.prefix(80))\"")
        }
        return count * factor
    }

    /// systemd's booleans: 1/yes/true/on and 0/no/false/off.
    public func boolean(_ key: String) throws(ConfigurationError) -> Bool? {
        guard let entry = entry(key) else { return nil }
        switch entry.value.lowercased() {
        case "1", "yes", "true", "on": return true
        case "0", "no", "false", "off": return false
        default: throw fail(entry.line, "\(key) must be yes or no, not \"\(entry.value)\"")
        }
    }

    public func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, of: Choice.Type) throws(ConfigurationError) -> Choice?
    where Choice.RawValue == String {
        guard let entry = entry(key) else { return nil }
        guard let choice = Choice(rawValue: entry.value) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw fail(entry.line, "\(key) must be one of \(names), not \"\(entry.value)\"")
        }
        return choice
    }
}
