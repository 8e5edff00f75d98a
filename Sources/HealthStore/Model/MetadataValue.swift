import Foundation

/// The value kinds metadata may hold (HEALTH-STORE.md §2 "Typed metadata": string, integer, double,
/// bool or date).
public enum MetadataValueKind: String, Sendable, Hashable {
    case string, integer, double, bool, date
}

/// A typed metadata value.
public enum MetadataValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
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
