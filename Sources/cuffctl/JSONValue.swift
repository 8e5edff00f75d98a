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
        case let .string(string): Self.quote(string, into: &bytes)
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
                Self.quote(key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                value.render(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
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

    /// A JSON string (RFC 8259 §7): `"` and `\` escaped, control characters as `\n`, `\u001f`…, the runs
    /// between them copied whole. Only ASCII bytes are escaped, and no byte of a multi-byte UTF-8 sequence is ASCII.
    private static func quote(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes += UnsafeBufferPointer(rebasing: utf8[runStart ..< index])
                bytes += escape(byte).utf8
                runStart = index + 1
            }
            bytes += UnsafeBufferPointer(rebasing: utf8[runStart...])
        }
        // A native string's bytes in place; any other (a bridged one) copied to native first.
        if string.utf8.withContiguousStorageIfAvailable(escaped) == nil {
            var native = string
            native.withUTF8(escaped)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A text's bytes, copied whole when they are contiguous (a native string's are).
    private static func append(_ text: String, to bytes: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes += $0 }) == nil { bytes += text.utf8 }
    }

    private static func escape(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): "\\\""
        case UInt8(ascii: "\\"): "\\\\"
        case UInt8(ascii: "\n"): "\\n"
        case UInt8(ascii: "\r"): "\\r"
        case UInt8(ascii: "\t"): "\\t"
        default: "\\u" + Hex.digits(UInt16(byte)).lowercased()
        }
    }
}
