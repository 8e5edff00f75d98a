/// One complete D-Bus type (D-Bus Specification, "Type System"): a basic type, or a container
/// built from complete types. `a{kv}` is kept as `.dictionary` rather than an array of dict entries,
/// because a dict entry is never a type on its own.
public indirect enum DBusType: Hashable, Sendable, CustomStringConvertible {
    case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double
    case string, objectPath, signature, unixFD
    case array(DBusType)
    case dictionary(key: DBusType, value: DBusType)
    case structure([DBusType])
    case variant

    /// The type code of each basic type, as in the specification's table of type codes.
    static let basicCodes: [Character: DBusType] = [
        "y": .byte, "b": .boolean, "n": .int16, "q": .uint16, "i": .int32, "u": .uint32,
        "x": .int64, "t": .uint64, "d": .double, "s": .string, "o": .objectPath, "g": .signature,
        "h": .unixFD,
    ]

    /// Basic types only may be dictionary keys (specification: "the first single complete type
    /// (the 'key') must be a basic type rather than a container type").
    public var isBasic: Bool {
        switch self {
        case .array, .dictionary, .structure, .variant: false
        default: true
        }
    }

    /// The type's signature text, e.g. `a{sv}`.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element): "a" + element.signature
        case .dictionary(let key, let value): "a{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    public var description: String { signature }

    /// Parses exactly one complete type.
    public init(parsing text: String) throws(DBusSignatureError) {
        let signature = try DBusSignature(text)
        guard signature.types.count == 1 else {
            throw DBusSignatureError(signature: text, reason: "expected exactly one complete type, found \(signature.types.count)")
        }
        self = signature.types[0]
    }
}
