/// A D-Bus value of any type, as it is marshalled. Arrays carry their element type so that an
/// empty array still has a signature. Arrays of bytes (`ay`, BlueZ's `Value`, the GATT payloads), doubles
/// (`ad`) and 64-bit integers (`ax`) have their own compact cases, marshalled as one block (libdbus's fixed
/// arrays) rather than element by element — the columns of cuffd's pages (docs/dbus-api.md, "Columns"); the
/// reader always produces `.bytes`, `.doubles` and `.int64s` for them. `.strings` is an `as` the writer appends string
/// by string from the texts themselves, without a `.string` value boxed for each — a page's text columns; the reader
/// produces `.array(.string, …)` for an `as`, and `[String]` decodes from either.
public indirect enum DBusValue: Hashable, Sendable, CustomStringConvertible {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(DBusObjectPath)
    case signature(DBusSignature)
    case unixFD(UnixFileDescriptor)
    case bytes([UInt8])
    case doubles([Double])
    case int64s([Int64])
    case strings([String])
    case array(DBusType, [DBusValue])
    case dictionary(key: DBusType, value: DBusType, [DBusDictionaryEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    public var type: DBusType {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .unixFD: .unixFD
        case .bytes: .array(.byte)
        case .doubles: .array(.double)
        case .int64s: .array(.int64)
        case .strings: .array(.string)
        case .array(let element, _): .array(element)
        case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
        case .structure(let fields): .structure(fields.map(\.type))
        case .variant: .variant
        }
    }

    public var description: String {
        switch self {
        case .byte(let v): "\(v)"
        case .boolean(let v): "\(v)"
        case .int16(let v): "\(v)"
        case .uint16(let v): "\(v)"
        case .int32(let v): "\(v)"
        case .uint32(let v): "\(v)"
        case .int64(let v): "\(v)"
        case .uint64(let v): "\(v)"
        case .double(let v): "\(v)"
        case .string(let v): "\"\(v)\""
        case .objectPath(let v): v.text
        case .signature(let v): "<\(v.text)>"
        case .unixFD(let v): v.description
        case .bytes(let v): "[" + v.map { String($0) }.joined(separator: ", ") + "]"
        case .doubles(let v): "[" + v.map { String($0) }.joined(separator: ", ") + "]"
        case .int64s(let v): "[" + v.map { String($0) }.joined(separator: ", ") + "]"
        case .strings(let v): "[" + v.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        case .array(_, let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(_, _, let entries): "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .structure(let fields): "(" + fields.map(\.description).joined(separator: ", ") + ")"
        case .variant(let inner): "<\(inner.type.signature) \(inner)>"
        }
    }

    /// Checks that every element, entry and field agrees with the declared container types, so a
    /// value built by hand fails here with a clear message instead of inside libdbus.
    public func validate() throws(DBusTypeMismatch) {
        switch self {
        case .array(let element, let items):
            for item in items {
                guard item.type == element else { throw DBusTypeMismatch(expected: element, found: item.type, context: "array element") }
                try item.validate()
            }
        case .dictionary(let keyType, let valueType, let entries):
            guard keyType.isBasic else { throw DBusTypeMismatch(expected: .string, found: keyType, context: "dictionary key must be basic") }
            for entry in entries {
                guard entry.key.type == keyType else { throw DBusTypeMismatch(expected: keyType, found: entry.key.type, context: "dictionary key") }
                guard entry.value.type == valueType else { throw DBusTypeMismatch(expected: valueType, found: entry.value.type, context: "dictionary value") }
                try entry.value.validate()
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw DBusTypeMismatch(expected: .structure([.byte]), found: .structure([]), context: "empty struct") }
            for field in fields { try field.validate() }
        case .variant(let inner):
            try inner.validate()
        default:
            break
        }
    }
}

/// One entry of an `a{kv}` value.
public struct DBusDictionaryEntry: Hashable, Sendable {
    public var key: DBusValue
    public var value: DBusValue

    public init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

/// A value of one type where another was expected: reading a reply, a property or an argument.
public struct DBusTypeMismatch: Error, Hashable, Sendable, CustomStringConvertible {
    public let expected: DBusType
    public let found: DBusType
    public let context: String

    public init(expected: DBusType, found: DBusType, context: String) {
        self.expected = expected
        self.found = found
        self.context = context
    }

    public var description: String { "\(context): expected \(expected.signature), found \(found.signature)" }
}
