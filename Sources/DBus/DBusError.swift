/// A D-Bus error: a name such as `org.bluez.Error.InProgress` and a human-readable message.
/// Error replies from peers arrive as this type; handlers of exported methods throw it (or any
/// `DBusErrorConvertible`) to answer with an error reply.
public struct DBusError: Error, Hashable, Sendable, CustomStringConvertible {
    public let name: Name
    public let message: String

    public init(_ name: Name, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name.rawValue : "\(name.rawValue): \(message)" }

    /// An error name (specification: the syntax of an interface name).
    public struct Name: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }

        // The bus's and libdbus's own names (dbus/dbus-protocol.h).
        public static let failed: Name = "org.freedesktop.DBus.Error.Failed"
        public static let noMemory: Name = "org.freedesktop.DBus.Error.NoMemory"
        public static let serviceUnknown: Name = "org.freedesktop.DBus.Error.ServiceUnknown"
        public static let nameHasNoOwner: Name = "org.freedesktop.DBus.Error.NameHasNoOwner"
        public static let noReply: Name = "org.freedesktop.DBus.Error.NoReply"
        public static let timeout: Name = "org.freedesktop.DBus.Error.Timeout"
        public static let disconnected: Name = "org.freedesktop.DBus.Error.Disconnected"
        public static let invalidArgs: Name = "org.freedesktop.DBus.Error.InvalidArgs"
        public static let invalidSignature: Name = "org.freedesktop.DBus.Error.InvalidSignature"
        public static let unknownMethod: Name = "org.freedesktop.DBus.Error.UnknownMethod"
        public static let unknownObject: Name = "org.freedesktop.DBus.Error.UnknownObject"
        public static let unknownInterface: Name = "org.freedesktop.DBus.Error.UnknownInterface"
        public static let unknownProperty: Name = "org.freedesktop.DBus.Error.UnknownProperty"
        public static let propertyReadOnly: Name = "org.freedesktop.DBus.Error.PropertyReadOnly"
        public static let accessDenied: Name = "org.freedesktop.DBus.Error.AccessDenied"
        public static let notSupported: Name = "org.freedesktop.DBus.Error.NotSupported"
    }
}

/// A domain error that has a D-Bus form, so exported methods can throw it directly and clients
/// can map a `DBusError` back to it (BlueZ's `org.bluez.Error.*`, cuffd's `org.cuffd.Error.*`).
public protocol DBusErrorConvertible: Error {
    var dbusError: DBusError { get }
}

extension DBusError: DBusErrorConvertible {
    public var dbusError: DBusError { self }
}

extension DBusTypeMismatch: DBusErrorConvertible {
    /// A caller that sends arguments of the wrong type gets `InvalidArgs` naming both types.
    public var dbusError: DBusError { DBusError(.invalidArgs, description) }
}
