#if canImport(Glibc)
import Glibc
#endif

/// A Swift type with a fixed D-Bus type: converts to a `DBusValue` and back, failing with a
/// `DBusTypeMismatch` that names both types.
public protocol DBusRepresentable: Sendable {
    static var dbusType: DBusType { get }
    init(dbusValue: DBusValue) throws(DBusTypeMismatch)
    var dbusValue: DBusValue { get }
}

extension DBusValue {
    /// This value as `T`; a variant is unwrapped when `T` is not itself `DBusVariant`.
    public func decode<T: DBusRepresentable>(_: T.Type = T.self, context: String = "value") throws(DBusTypeMismatch) -> T {
        do {
            return try T(dbusValue: self)
        } catch {
            throw DBusTypeMismatch(expected: error.expected, found: error.found, context: context)
        }
    }
}

private func mismatch(_ expected: DBusType, _ value: DBusValue) -> DBusTypeMismatch {
    DBusTypeMismatch(expected: expected, found: value.type, context: "value")
}

extension UInt8: DBusRepresentable {
    public static var dbusType: DBusType { .byte }
    public var dbusValue: DBusValue { .byte(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .byte(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = v
    }
}

extension Bool: DBusRepresentable {
    public static var dbusType: DBusType { .boolean }
    public var dbusValue: DBusValue { .boolean(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .boolean(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = v
    }
}

extension Int16: DBusRepresentable {
    public static var dbusType: DBusType { .int16 }
    public var dbusValue: DBusValue { .int16(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .int16(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = v
    }
}

extension UInt16: DBusRepresentable {
    public static var dbusType: DBusType { .uint16 }
    public var dbusValue: DBusValue { .uint16(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .uint16(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = v
    }
}

extension Int32: DBusRepresentable {
    public static var dbusType: DBusType { .int32 }
    public var dbusValue: DBusValue { .int32(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .int32(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = v
    }
}

extension UInt32: DBusRepresentable {
    public static var dbusType: DBusType { .uint32 }
    public var dbusValue: DBusValue { .uint32(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .uint32(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = v
    }
}

extension Int64: DBusRepresentable {
    public static var dbusType: DBusType { .int64 }
    public var dbusValue: DBusValue { .int64(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .int64(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = v
    }
}

extension UInt64: DBusRepresentable {
    public static var dbusType: DBusType { .uint64 }
    public var dbusValue: DBusValue { .uint64(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .uint64(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = v
    }
}

extension Double: DBusRepresentable {
    public static var dbusType: DBusType { .double }
    public var dbusValue: DBusValue { .double(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .double(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = v
    }
}

extension String: DBusRepresentable {
    public static var dbusType: DBusType { .string }
    public var dbusValue: DBusValue { .string(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .string(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = v
    }
}

extension DBusObjectPath: DBusRepresentable {
    public static var dbusType: DBusType { .objectPath }
    public var dbusValue: DBusValue { .objectPath(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .objectPath(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = v
    }
}

extension DBusSignature: DBusRepresentable {
    public static var dbusType: DBusType { .signature }
    public var dbusValue: DBusValue { .signature(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .signature(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        self = v
    }
}

extension UnixFileDescriptor: DBusRepresentable {
    public static var dbusType: DBusType { .unixFD }
    public var dbusValue: DBusValue { .unixFD(self) }
    public convenience init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .unixFD(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        // A second owner of the same descriptor would close it twice: take a duplicate.
        self.init(owning: fcntl(v.rawValue, F_DUPFD_CLOEXEC, 0))
    }
}

/// `v`: any value together with its type.
public struct DBusVariant: DBusRepresentable, Hashable {
    public var value: DBusValue
    public init(_ value: DBusValue) { self.value = value }
    public init<T: DBusRepresentable>(_ value: T) { self.value = value.dbusValue }
    public static var dbusType: DBusType { .variant }
    public var dbusValue: DBusValue { .variant(value) }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .variant(let v) = dbusValue else { throw mismatch(Self.dbusType, dbusValue) }
        value = v
    }

    /// The contained value as `T`.
    public func decode<T: DBusRepresentable>(_: T.Type = T.self, context: String = "variant") throws(DBusTypeMismatch) -> T {
        try value.decode(T.self, context: context)
    }
}

extension Array: DBusRepresentable where Element: DBusRepresentable {
    public static var dbusType: DBusType { .array(Element.dbusType) }
    public var dbusValue: DBusValue {
        // By element type, not by cast: an empty array of any type casts to [UInt8].
        if Element.self == UInt8.self { return .bytes(self as! [UInt8]) }
        if Element.self == Double.self { return .doubles(self as! [Double]) }
        if Element.self == Int64.self { return .int64s(self as! [Int64]) }
        return .array(Element.dbusType, map(\.dbusValue))
    }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        switch dbusValue {
        case .bytes(let bytes) where Element.self == UInt8.self:
            self = bytes as! [Element]
        case .doubles(let doubles) where Element.self == Double.self:
            self = doubles as! [Element]
        case .int64s(let integers) where Element.self == Int64.self:
            self = integers as! [Element]
        case .strings(let texts) where Element.self == String.self:
            self = texts as! [Element]
        case .array(let element, let items) where element == Element.dbusType:
            self = []
            reserveCapacity(items.count)
            for item in items { append(try Element(dbusValue: item)) }
        default:
            throw mismatch(Self.dbusType, dbusValue)
        }
    }
}

extension Dictionary: DBusRepresentable where Key: DBusRepresentable, Value: DBusRepresentable {
    public static var dbusType: DBusType { .dictionary(key: Key.dbusType, value: Value.dbusType) }
    public var dbusValue: DBusValue {
        .dictionary(key: Key.dbusType, value: Value.dbusType, map { DBusDictionaryEntry($0.key.dbusValue, $0.value.dbusValue) })
    }
    public init(dbusValue: DBusValue) throws(DBusTypeMismatch) {
        guard case .dictionary(let keyType, let valueType, let entries) = dbusValue,
              keyType == Key.dbusType, valueType == Value.dbusType
        else { throw mismatch(Self.dbusType, dbusValue) }
        self = [:]
        reserveCapacity(entries.count)
        for entry in entries {
            self[try Key(dbusValue: entry.key)] = try Value(dbusValue: entry.value)
        }
    }
}

/// `a{sv}`, the property and option dictionary of BlueZ and `org.freedesktop.DBus.Properties`.
public typealias DBusProperties = [String: DBusVariant]

extension Dictionary where Key == String, Value == DBusVariant {
    /// The property `name` as `T`, or nil when absent; a present value of the wrong type throws.
    public func property<T: DBusRepresentable>(_ name: String, as _: T.Type = T.self) throws(DBusTypeMismatch) -> T? {
        guard let variant = self[name] else { return nil }
        return try variant.decode(T.self, context: "property \(name)")
    }
}
