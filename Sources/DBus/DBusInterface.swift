/// The description of an exported interface: its methods with their handlers, its properties
/// with their current values, its signals. Introspection XML, argument checking, `Properties`
/// and `ObjectManager` are all derived from it.
public struct DBusInterface: Sendable {
    public var name: String
    public var methods: [Method]
    public var properties: [Property]
    public var signals: [Signal]

    public init(_ name: String, methods: [Method] = [], properties: [Property] = [], signals: [Signal] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    /// A named, typed argument (the names appear only in introspection).
    public struct Argument: Sendable, Hashable {
        public var name: String
        public var type: DBusType
        public init(_ name: String, _ type: DBusType) {
            self.name = name
            self.type = type
        }
    }

    /// Answers one call; its arguments have already been checked against `inputs`. It runs in
    /// a task of its own, never on the connection's queue, so it may call out (even back to
    /// the caller) before it returns. Throw a `DBusErrorConvertible` to answer with that error.
    public typealias Handler = @Sendable (DBusMethodCall) async throws -> [DBusValue]

    public struct Method: Sendable {
        public var name: String
        public var inputs: [Argument]
        public var outputs: [Argument]
        public var handler: Handler

        public init(_ name: String, inputs: [Argument] = [], outputs: [Argument] = [], handler: @escaping Handler) {
            self.name = name
            self.inputs = inputs
            self.outputs = outputs
            self.handler = handler
        }
    }

    public enum Access: String, Sendable {
        case read, write, readwrite
    }

    /// Validates a value written with `Properties.Set` and returns the value to store; throwing
    /// refuses the write with that error.
    public typealias Setter = @Sendable (DBusValue, DBusMethodCall) async throws -> DBusValue

    public struct Property: Sendable {
        public var name: String
        public var type: DBusType
        public var access: Access
        public var value: DBusValue
        public var setter: Setter?

        /// A property; writable ones need a `setter`.
        public init(_ name: String, _ value: DBusValue, access: Access = .read, setter: Setter? = nil) {
            precondition(access == .read || setter != nil, "writable property \(name) needs a setter")
            self.name = name
            type = value.type
            self.access = access
            self.value = value
            self.setter = setter
        }

        public init<T: DBusRepresentable>(_ name: String, _ value: T, access: Access = .read, setter: Setter? = nil) {
            self.init(name, value.dbusValue, access: access, setter: setter)
        }
    }

    public struct Signal: Sendable {
        public var name: String
        public var arguments: [Argument]
        public init(_ name: String, _ arguments: [Argument] = []) {
            self.name = name
            self.arguments = arguments
        }
    }

    /// The current values of the readable properties, as in `GetAll`.
    var readableProperties: [DBusDictionaryEntry] {
        properties.filter { $0.access != .write }.map { DBusDictionaryEntry(.string($0.name), .variant($0.value)) }
    }
}

/// A method call as an exported method's handler sees it.
public struct DBusMethodCall: Sendable {
    public let message: DBusMessage
    public let connection: DBusConnection

    public var arguments: [DBusValue] { message.arguments }
    public var path: DBusObjectPath { message.path ?? .root }
    /// The caller's unique bus name.
    public var sender: String { message.sender ?? "" }

    /// Argument `index` as `T`.
    public func argument<T: DBusRepresentable>(_ index: Int, as type: T.Type = T.self) throws(DBusTypeMismatch) -> T {
        try message.argument(index, as: type)
    }

    /// The caller's unix user id, for authorization.
    public func callerUnixUser() async throws(DBusError) -> UInt32 {
        try await connection.unixUser(of: sender)
    }

    /// The caller's user, groups and process, for authorization.
    public func callerCredentials() async throws(DBusError) -> ConnectionCredentials {
        try await connection.credentials(of: sender)
    }
}

/// Well-known names of the standard interfaces (D-Bus Specification, "Standard Interfaces").
public enum StandardInterface {
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    public static let peer = "org.freedesktop.DBus.Peer"
}
