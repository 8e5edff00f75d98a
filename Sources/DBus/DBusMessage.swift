import CDBus

/// A received or outgoing message with its header fields and decoded arguments. Received
/// messages are decoded once, on the connection's queue, so they cross threads as plain values.
public struct DBusMessage: Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case methodCall, methodReturn, error, signal
    }

    public var kind: Kind
    public var serial: UInt32 = 0
    public var replySerial: UInt32 = 0
    public var sender: String?
    public var destination: String?
    public var path: DBusObjectPath?
    public var interface: String?
    public var member: String?
    public var errorName: String?
    public var noReplyExpected = false
    public var arguments: [DBusValue]

    public static func methodCall(
        destination: String?, path: DBusObjectPath, interface: String?, member: String, arguments: [DBusValue] = []
    ) -> DBusMessage {
        var message = DBusMessage(kind: .methodCall, arguments: arguments)
        message.destination = destination
        message.path = path
        message.interface = interface
        message.member = member
        return message
    }

    public static func signal(path: DBusObjectPath, interface: String, member: String, arguments: [DBusValue] = []) -> DBusMessage {
        var message = DBusMessage(kind: .signal, arguments: arguments)
        message.path = path
        message.interface = interface
        message.member = member
        return message
    }

    /// The successful reply to this method call.
    public func methodReturn(_ arguments: [DBusValue] = []) -> DBusMessage {
        var reply = DBusMessage(kind: .methodReturn, arguments: arguments)
        reply.replySerial = serial
        reply.destination = sender
        return reply
    }

    /// The error reply to this method call.
    public func errorReply(_ error: DBusError) -> DBusMessage {
        var reply = DBusMessage(kind: .error, arguments: [.string(error.message)])
        reply.replySerial = serial
        reply.destination = sender
        reply.errorName = error.name.rawValue
        return reply
    }

    /// The signature of the arguments, e.g. `sa{sv}as`.
    public var signature: String { arguments.map(\.type.signature).joined() }

    /// The error this message carries, when it is an error reply.
    public var error: DBusError? {
        guard kind == .error, let errorName else { return nil }
        let message: String = if case .string(let text)? = arguments.first { text } else { "" }
        return DBusError(DBusError.Name(rawValue: errorName), message)
    }

    public var description: String {
        let target = [path?.text, interface, member].compactMap { $0 }.joined(separator: " ")
        return "\(kind) \(target) (\(signature)) serial \(serial)"
    }

    /// Argument `index` as `T`, with an error naming the member and position.
    public func argument<T: DBusRepresentable>(_ index: Int, as _: T.Type = T.self) throws(DBusTypeMismatch) -> T {
        let context = "argument \(index) of \(member ?? "message")"
        guard index < arguments.count else {
            throw DBusTypeMismatch(expected: T.dbusType, found: .structure([]), context: context + " (missing; message has \(signature.isEmpty ? "no arguments" : signature))")
        }
        return try arguments[index].decode(T.self, context: context)
    }

    // MARK: - libdbus

    init(raw: OpaquePointer) {
        let kind: Kind = switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: .error
        default: .signal
        }
        self.init(kind: kind, arguments: MessageReader.arguments(of: raw))
        serial = dbus_message_get_serial(raw)
        replySerial = dbus_message_get_reply_serial(raw)
        sender = dbus_message_get_sender(raw).map { String(cString: $0) }
        destination = dbus_message_get_destination(raw).map { String(cString: $0) }
        path = dbus_message_get_path(raw).map { DBusObjectPath(unchecked: String(cString: $0)) }
        interface = dbus_message_get_interface(raw).map { String(cString: $0) }
        member = dbus_message_get_member(raw).map { String(cString: $0) }
        errorName = dbus_message_get_error_name(raw).map { String(cString: $0) }
        noReplyExpected = dbus_message_get_no_reply(raw) != 0
    }

    init(kind: Kind, arguments: [DBusValue]) {
        self.kind = kind
        self.arguments = arguments
    }

    /// A new libdbus message (owned: the caller unrefs it). Header fields are checked by libdbus's
    /// validating setters; an invalid name is reported as `InvalidArgs`.
    func makeRaw() throws(DBusError) -> RawMessage {
        let type: Int32 = switch kind {
        case .methodCall: DBUS_MESSAGE_TYPE_METHOD_CALL
        case .methodReturn: DBUS_MESSAGE_TYPE_METHOD_RETURN
        case .error: DBUS_MESSAGE_TYPE_ERROR
        case .signal: DBUS_MESSAGE_TYPE_SIGNAL
        }
        guard let raw = dbus_message_new(type) else { throw DBusError(.noMemory, "out of memory creating a message") }
        do {
            try set(raw, "destination", destination, dbus_validate_bus_name, dbus_message_set_destination)
            try set(raw, "path", path?.text, dbus_validate_path, dbus_message_set_path)
            try set(raw, "interface", interface, dbus_validate_interface, dbus_message_set_interface)
            try set(raw, "member", member, dbus_validate_member, dbus_message_set_member)
            try set(raw, "error name", errorName, dbus_validate_error_name, dbus_message_set_error_name)
            if replySerial != 0 { dbus_message_set_reply_serial(raw, replySerial) }
            if noReplyExpected { dbus_message_set_no_reply(raw, 1) }
            try MessageWriter.append(arguments, to: raw)
        } catch {
            dbus_message_unref(raw)
            throw error
        }
        return RawMessage(pointer: raw)
    }

    private func set(
        _ raw: OpaquePointer, _ field: String, _ value: String?,
        _ validate: (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t,
        _ setter: (OpaquePointer?, UnsafePointer<CChar>?) -> dbus_bool_t
    ) throws(DBusError) {
        guard let value else { return }
        let valid = value.withCString { validate($0, nil) } != 0
        guard valid else { throw DBusError(.invalidArgs, "invalid \(field) \"\(value)\"") }
        guard value.withCString({ setter(raw, $0) }) != 0 else { throw DBusError(.noMemory, "out of memory setting \(field)") }
    }
}

/// A libdbus message reference handed from the thread that built it to the connection's queue;
/// nothing else touches it in between.
struct RawMessage: @unchecked Sendable {
    let pointer: OpaquePointer
}
