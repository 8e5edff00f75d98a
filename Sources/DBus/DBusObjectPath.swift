/// A D-Bus object path, validated on creation (specification, "Valid Object Paths"): begins with
/// `/`, elements of `[A-Za-z0-9_]` separated by single slashes, no trailing slash except the root.
public struct DBusObjectPath: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let text: String

    public static let root = DBusObjectPath(unchecked: "/")

    public init(_ text: String) throws(DBusObjectPathError) {
        guard Self.isValid(text) else { throw DBusObjectPathError(path: text) }
        self.text = text
    }

    init(unchecked text: String) {
        self.text = text
    }

    public init(stringLiteral value: String) {
        precondition(Self.isValid(value), "invalid D-Bus object path literal \"\(value)\"")
        text = value
    }

    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        guard bytes.last != UInt8(ascii: "/") else { return false }
        var previousWasSlash = true
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: "/") {
                if previousWasSlash { return false }
                previousWasSlash = true
            } else {
                guard isElementCharacter(byte) else { return false }
                previousWasSlash = false
            }
        }
        return true
    }

    static func isElementCharacter(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    /// The path of a child element; `element` must be non-empty and of `[A-Za-z0-9_]`.
    public func appending(_ element: String) throws(DBusObjectPathError) -> DBusObjectPath {
        try DBusObjectPath(text == "/" ? "/" + element : text + "/" + element)
    }

    /// Whether `self` is `ancestor` or lies beneath it.
    public func isDescendant(of ancestor: DBusObjectPath) -> Bool {
        if ancestor.text == "/" || ancestor == self { return true }
        return text.hasPrefix(ancestor.text + "/")
    }

    public var parent: DBusObjectPath? {
        guard text != "/" else { return nil }
        let slash = text.lastIndex(of: "/")!
        return slash == text.startIndex ? .root : DBusObjectPath(unchecked: String(text[..<slash]))
    }

    public var description: String { text }
    public static func < (lhs: DBusObjectPath, rhs: DBusObjectPath) -> Bool { lhs.text < rhs.text }
}

public struct DBusObjectPathError: Error, Hashable, Sendable, CustomStringConvertible {
    public let path: String
    public var description: String { "invalid D-Bus object path \"\(path)\"" }
}
