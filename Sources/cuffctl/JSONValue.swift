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
        switch self {
        case .null: "null"
        case let .bool(value): value ? "true" : "false"
        case let .number(text): text
        case let .string(text): Self.quoted(text)
        case let .array(items): "[" + items.map(\.rendered).joined(separator: ",") + "]"
        case let .object(members):
            "{" + members.map { Self.quoted($0.0) + ":" + $0.1.rendered }.joined(separator: ",") + "}"
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

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + Hex.digits(UInt16(scalar.value)).lowercased()
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
