/// A signal match rule (D-Bus Specification, "Match Rules"). The same rule is sent to the bus with
/// `AddMatch` and used in-process to route each received signal to its subscribers, since one
/// connection receives the union of all its rules.
public struct MatchRule: Hashable, Sendable, CustomStringConvertible {
    public var sender: String?
    public var interface: String?
    public var member: String?
    public var path: DBusObjectPath?
    /// Matches the path itself and every path beneath it.
    public var pathNamespace: DBusObjectPath?
    /// `argN='…'`: string argument N equals the value.
    public var arguments: [Int: String]
    /// `argNpath='…'`: argument N (string or object path) equals the value, or one of the two is a
    /// prefix of the other ending in `/`.
    public var pathArguments: [Int: String]

    public init(
        sender: String? = nil, interface: String? = nil, member: String? = nil,
        path: DBusObjectPath? = nil, pathNamespace: DBusObjectPath? = nil,
        arguments: [Int: String] = [:], pathArguments: [Int: String] = [:]
    ) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.arguments = arguments
        self.pathArguments = pathArguments
    }

    /// The rule's text for `AddMatch`/`RemoveMatch`.
    public var description: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            if let value { parts.append("\(key)=\(Self.quoted(value))") }
        }
        add("sender", sender)
        add("interface", interface)
        add("member", member)
        add("path", path?.text)
        add("path_namespace", pathNamespace?.text)
        for (index, value) in arguments.sorted(by: { $0.key < $1.key }) { add("arg\(index)", value) }
        for (index, value) in pathArguments.sorted(by: { $0.key < $1.key }) { add("arg\(index)path", value) }
        return parts.joined(separator: ",")
    }

    /// Quotes a value: inside single quotes a backslash is literal and an apostrophe cannot
    /// appear, so each apostrophe closes the quote, is written escaped, and reopens it (`'\''`).
    static func quoted(_ value: String) -> String {
        "'" + value.replacingApostrophes() + "'"
    }

    /// Whether a received signal satisfies the rule. `sender` is compared with the message's
    /// sender, which is always a unique name: callers resolve well-known names first.
    public func matches(_ message: DBusMessage, senderUniqueName: String? = nil) -> Bool {
        guard message.kind == .signal else { return false }
        if let sender, message.sender != sender, message.sender != senderUniqueName { return false }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let path, message.path != path { return false }
        if let pathNamespace {
            guard let messagePath = message.path, messagePath.isDescendant(of: pathNamespace) else { return false }
        }
        for (index, value) in arguments {
            guard index < message.arguments.count, case .string(let text) = message.arguments[index], text == value else { return false }
        }
        for (index, value) in pathArguments {
            guard index < message.arguments.count else { return false }
            let text: String
            switch message.arguments[index] {
            case .string(let string): text = string
            case .objectPath(let path): text = path.text
            default: return false
            }
            let related = text == value || (value.hasSuffix("/") && text.hasPrefix(value)) || (text.hasSuffix("/") && value.hasPrefix(text))
            guard related else { return false }
        }
        return true
    }
}

extension String {
    fileprivate func replacingApostrophes() -> String {
        split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''")
    }
}
