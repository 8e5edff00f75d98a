import JSONEscaping
import TerminalEscaping

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
        var bytes: [UInt8] = []
        render(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact JSON text, UTF-8, to `bytes`: one growing buffer, nothing rendered twice.
    func render(into bytes: inout [UInt8]) {
        switch self {
        case .null: bytes += "null".utf8
        case let .bool(value): bytes += (value ? "true" : "false").utf8
        case let .number(number): Self.append(number, to: &bytes)
        case let .string(string): JSONString.append(string, to: &bytes)
        case let .array(items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                item.render(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case let .object(members):
            bytes.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONString.append(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                value.render(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// The value as a person reads it: text unquoted and escaped for a terminal (``TerminalText``: a Device
    /// Information string is what the device sent), specials by name, `—` for null.
    var plainText: String {
        switch self {
        case .null: "—"
        case let .string(text): TerminalText.escaped(text)
        case let .array(items): items.map(\.plainText).joined(separator: ", ")
        default: rendered
        }
    }

    /// A text's bytes, copied whole when they are contiguous (a native string's are).
    private static func append(_ text: String, to bytes: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes += $0 }) == nil { bytes += text.utf8 }
    }
}
