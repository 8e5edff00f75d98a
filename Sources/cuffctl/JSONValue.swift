import GATTHealth

/// A JSON value whose object keys keep their order and whose numbers keep their decimal text, so an
/// SFLOAT of 2.00 prints as `2.00` and a report reads in the order of the wire format.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number's exact JSON text (`120.5`, `-16.2`, `2.00`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func integer(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.rendered == rhs.rendered }

    /// Compact JSON text.
    var rendered: String {
        var text = ""
        render(into: &text)
        return text
    }

    /// Appends the compact JSON text to `text`: one growing string, nothing rendered twice.
    func render(into text: inout String) {
        switch self {
        case .null: text += "null"
        case let .bool(value): text += value ? "true" : "false"
        case let .number(number): text += number
        case let .string(string): Self.quote(string, into: &text)
        case let .array(items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                item.render(into: &text)
            }
            text += "]"
        case let .object(members):
            text += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { text += "," }
                Self.quote(key, into: &text)
                text += ":"
                value.render(into: &text)
            }
            text += "}"
        }
    }

    /// The value as a person reads it: text unquoted, specials by name, `—` for null.
    var plainText: String {
        switch self {
        case .null: "—"
        case let .string(text): text
        case let .array(items): items.map(\.plainText).joined(separator: ", ")
        default: rendered
        }
    }

    /// A JSON string (RFC 8259 §7): `"` and `\` escaped, control characters as `\n`, `\u001f`…; text
    /// without any of them (nearly all) appended whole.
    private static func quote(_ string: String, into text: inout String) {
        text += "\""
        guard string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            text += string
            text += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                text += "\\u" + Hex.digits(UInt16(scalar.value)).lowercased()
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
