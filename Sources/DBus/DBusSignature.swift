/// A D-Bus signature: zero or more complete types, validated on creation against the
/// specification's rules (at most 255 bytes, containers nested at most 32 deep each for arrays
/// and structs, dictionary keys basic, no empty structs, dict entries only inside arrays).
public struct DBusSignature: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let types: [DBusType]

    public init(_ types: [DBusType]) {
        self.types = types
    }

    public init(_ text: String) throws(DBusSignatureError) {
        guard text.utf8.count <= 255 else {
            throw DBusSignatureError(signature: text, reason: "longer than 255 bytes")
        }
        var parser = SignatureParser(text: text)
        types = try parser.parseAll()
    }

    /// For literals in code; a malformed literal is a programming error.
    public init(stringLiteral value: String) {
        do {
            try self.init(value)
        } catch {
            preconditionFailure("invalid D-Bus signature literal: \(error)")
        }
    }

    public var text: String { types.map(\.signature).joined() }
    public var description: String { text }
}

/// A signature that breaks the specification's rules, with the rule it breaks.
public struct DBusSignatureError: Error, Hashable, Sendable, CustomStringConvertible {
    public let signature: String
    public let reason: String
    public var description: String { "invalid D-Bus signature \"\(signature)\": \(reason)" }
}

/// Recursive-descent parser over the signature's characters.
private struct SignatureParser {
    let text: String
    let characters: [Character]
    var position = 0
    var arrayDepth = 0
    var structDepth = 0

    init(text: String) {
        self.text = text
        characters = Array(text)
    }

    mutating func parseAll() throws(DBusSignatureError) -> [DBusType] {
        var types: [DBusType] = []
        while position < characters.count {
            types.append(try parseOne())
        }
        return types
    }

    private func failure(_ reason: String) -> DBusSignatureError {
        DBusSignatureError(signature: text, reason: reason)
    }

    private mutating func parseOne() throws(DBusSignatureError) -> DBusType {
        guard position < characters.count else { throw failure("ends inside a container") }
        let code = characters[position]
        position += 1
        if let basic = DBusType.basicCodes[code] { return basic }
        switch code {
        case "v":
            return .variant
        case "a":
            arrayDepth += 1
            defer { arrayDepth -= 1 }
            guard arrayDepth <= 32 else { throw failure("arrays nested deeper than 32") }
            if position < characters.count, characters[position] == "{" {
                position += 1
                let key = try parseOne()
                guard key.isBasic else { throw failure("dictionary key \(key) is not a basic type") }
                let value = try parseOne()
                guard position < characters.count, characters[position] == "}" else {
                    throw failure("dict entry must hold exactly two types and end with '}'")
                }
                position += 1
                return .dictionary(key: key, value: value)
            }
            return .array(try parseOne())
        case "(":
            structDepth += 1
            defer { structDepth -= 1 }
            guard structDepth <= 32 else { throw failure("structs nested deeper than 32") }
            var fields: [DBusType] = []
            while position < characters.count, characters[position] != ")" {
                fields.append(try parseOne())
            }
            guard position < characters.count else { throw failure("struct not closed") }
            position += 1
            guard !fields.isEmpty else { throw failure("empty struct") }
            return .structure(fields)
        case "{":
            throw failure("dict entry outside an array")
        default:
            throw failure("unknown type code '\(code)'")
        }
    }
}
