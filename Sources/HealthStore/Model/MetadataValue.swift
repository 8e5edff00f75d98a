import Foundation

/// The value kinds metadata may hold (docs/reference/HEALTH-STORE.md §2 "Typed metadata": string, integer, double,
/// bool or date).
public enum MetadataValueKind: String, Sendable, Hashable {
    /// The kinds of ``MetadataValue``.
    case string, integer, double, bool, date
}

/// A typed metadata value.
public enum MetadataValue: Sendable, Hashable {
    /// Text.
    case string(String)
    /// A 64-bit integer (enumerations, bit fields, versions).
    case integer(Int64)
    /// A finite floating-point number.
    case double(Double)
    /// A flag.
    case bool(Bool)
    /// An instant (stored as microseconds since 1970 UTC).
    case date(Date)

    /// The kind of this value.
    public var kind: MetadataValueKind {
        switch self {
        case .string: .string
        case .integer: .integer
        case .double: .double
        case .bool: .bool
        case .date: .date
        }
    }
}
