import Broadcasting
import CDBus
import Dispatch
import Synchronization

/// A private libdbus connection driven by its own serial queue (docs/reference/BLUEZ-DBUS.md §15): never the
/// shared connection, never exit-on-disconnect, never a blocking call once it is running. Every
/// libdbus call after `open` happens on `queue`; the public API hops there and returns through
/// continuations, so any task may use a connection.
///
/// A connection lives until `close()` is called or the bus goes away; then every pending call
/// fails with `Disconnected`, every signal stream finishes and `events` reports `.disconnected`.
public final class DBusConnection: @unchecked Sendable {
    /// Which bus to connect to.
    public enum Bus: Sendable, Hashable {
        /// The system bus; libdbus honours `DBUS_SYSTEM_BUS_ADDRESS`.
        case system
        /// The session bus of `DBUS_SESSION_BUS_ADDRESS`.
        case session
        /// An explicit address such as `unix:path=/run/cuffd-test/bus`.
        case address(String)
    }

    /// The connection's unique name on the bus, e.g. `:1.42`.
    public let uniqueName: String

    let raw: OpaquePointer
    let queue: DispatchQueue
    private let loop: ConnectionLoop
    // State below is touched only on `queue`.
    var router = SignalRouter()
    var objects = ObjectTree()
    var pendingReplies: [ObjectIdentifier: PendingReply] = [:]
    let connectionEvents = Broadcaster<DBusConnectionEvent>()
    private(set) var isOpen = true
    /// Where the handlers of exported methods run (``runMethodCalls(on:)``).
    var methodCallExecutor: (any TaskExecutor)?
    /// Any thread.
    let credentialsCache = Mutex(CredentialsCache())

    /// How long a call made without a timeout of its own waits for its reply: libdbus's default, 25 s, unless the
    /// connection was opened with another.
    public let callTimeout: Duration

    /// Connects, authenticates and registers with the bus (`Hello`). This one step blocks the
    /// calling thread, before the connection has a loop; callers do it at start-up. `callTimeout` is how long its calls
    /// wait for a reply unless they say otherwise, the calls this library makes on its own (the caller's credentials
    /// from the bus) included.
    public static func open(_ bus: Bus, label: String = "dbus", callTimeout: Duration = .seconds(25)) throws(DBusError) -> DBusConnection {
        _ = dbus_threads_init_default()
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let raw: OpaquePointer?
        switch bus {
        case .system:
            raw = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
        case .session:
            raw = dbus_bus_get_private(DBUS_BUS_SESSION, &error)
        case .address(let address):
            raw = dbus_connection_open_private(address, &error)
            if let raw, dbus_bus_register(raw, &error) == 0 {
                dbus_connection_close(raw)
                dbus_connection_unref(raw)
                throw DBusError(libdbus: error, context: "cannot register with the bus at \(address)")
            }
        }
        guard let raw else { throw DBusError(libdbus: error, context: "cannot connect to the \(bus) bus") }
        dbus_connection_set_exit_on_disconnect(raw, 0)
        return DBusConnection(raw: raw, label: label, callTimeout: callTimeout)
    }

    private init(raw: OpaquePointer, label: String, callTimeout: Duration) {
        self.raw = raw
        self.callTimeout = callTimeout
        uniqueName = String(cString: dbus_bus_get_unique_name(raw))
        queue = DispatchQueue(label: "cuffd.\(label).\(uniqueName)")
        loop = ConnectionLoop(raw: raw, queue: queue)
        // The filter's reference to self is released in `tearDown`, when the connection closes.
        dbus_connection_add_filter(raw, messageFilter, Unmanaged.passRetained(self).toOpaque(), nil)
        queue.sync { loop.start() }
    }

    /// Closes the connection: pending calls fail, streams finish, exported objects vanish.
    public func close() {
        queue.sync {
            guard isOpen else { return }
            dbus_connection_close(raw)
            // libdbus queues the local Disconnected message; handle it now rather than on a drain.
            while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
            if isOpen { tearDown() }
        }
    }

    /// Called on `queue` when the local `Disconnected` signal arrives or `close()` runs.
    func tearDown() {
        isOpen = false
        loop.stop()
        for reply in pendingReplies.values { reply.disconnect() }
        pendingReplies.removeAll()
        router.finishAll()
        connectionEvents.close(last: .disconnected)
        objects = ObjectTree()
        dbus_connection_remove_filter(raw, messageFilter, Unmanaged.passUnretained(self).toOpaque())
        Unmanaged.passUnretained(self).release()
    }

    /// Runs the handlers of the methods and property setters exported on this connection as tasks preferring
    /// `executor` (`Task(executorPreference:)`), or on the default executor when nil, as before it was called:
    /// cuffd runs its control API's calls on a thread of their own, beside the loop that commits readings
    /// (docs/architecture.md, "One thread for Swift concurrency"). For the calls that arrive afterwards.
    public func runMethodCalls(on executor: (any TaskExecutor)?) async {
        await onQueue { self.methodCallExecutor = executor }
    }

    /// Connection events: `.disconnected` when the bus goes away or the connection is closed.
    /// Each call returns a new stream.
    public func events() -> AsyncStream<DBusConnectionEvent> {
        connectionEvents.subscribe()
    }

    // MARK: - Sending

    /// Sends a message without waiting for a reply (signals, replies, fire-and-forget calls).
    public func send(_ message: DBusMessage) throws(DBusError) {
        let raw = try message.makeRaw()
        queue.async { [self] in
            if isOpen { dbus_connection_send(self.raw, raw.pointer, nil) }
            dbus_message_unref(raw.pointer)
        }
    }

    /// Sends a method call and waits for its reply (``callTimeout`` unless `timeout` says otherwise), without blocking
    /// any thread. A timeout, a vanished peer or a closed connection surface as `DBusError`s (`NoReply`,
    /// `Disconnected`); an error reply surfaces as its own name and message. Cancelling the task cancels the call.
    public func call(_ message: DBusMessage, timeout: Duration? = nil) async throws(DBusError) -> DBusMessage {
        precondition(message.kind == .methodCall, "call(_:) sends method calls")
        let timeout = timeout ?? callTimeout
        let raw = try message.makeRaw()
        let pending = PendingReply()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<DBusMessage, DBusError>, Never>) in
                queue.async { [self] in
                    pending.start(continuation, raw: raw, on: self, timeout: timeout)
                }
            }
        } onCancel: {
            queue.async { pending.cancel() }
        }
        return try result.get()
    }

    /// Calls `interface.member` on `path` of `destination` and returns the reply's arguments.
    public func call(
        _ destination: String, _ path: DBusObjectPath, _ interface: String, _ member: String,
        _ arguments: [DBusValue] = [], timeout: Duration? = nil
    ) async throws(DBusError) -> [DBusValue] {
        try await call(.methodCall(destination: destination, path: path, interface: interface, member: member, arguments: arguments), timeout: timeout).arguments
    }

    // MARK: - Receiving

    /// Every incoming message passes here, on `queue`, from `dbus_connection_dispatch`.
    fileprivate func handle(_ raw: OpaquePointer) -> DBusHandlerResult {
        let message = DBusMessage(raw: raw)
        switch message.kind {
        case .signal:
            if message.interface == "org.freedesktop.DBus.Local", message.member == "Disconnected" {
                tearDown()
                return DBUS_HANDLER_RESULT_HANDLED
            }
            router.deliver(message)
            // Other filters (none) and libdbus's own handling may still see it.
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case .methodCall:
            return dispatchMethodCall(message) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case .methodReturn, .error:
            // Replies are claimed by their pending calls before filters run.
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }
}

/// An event of the connection itself.
public enum DBusConnectionEvent: Sendable, Hashable {
    /// The bus went away, or the connection was closed. Nothing sent afterwards is delivered.
    case disconnected
}

private let messageFilter: DBusHandleMessageFunction = { _, message, context in
    Unmanaged<DBusConnection>.fromOpaque(context!).takeUnretainedValue().handle(message!)
}

extension DBusError {
    /// A libdbus `DBusError` as a Swift error, with what was being attempted.
    init(libdbus error: CDBus.DBusError, context: String) {
        // `dbus_error_is_set` only tests `name` (dbus-errors.c); reading the field needs no pointer to a copy.
        if let name = error.name {
            let message = error.message.map { String(cString: $0) } ?? ""
            self.init(Name(rawValue: String(cString: name)), "\(context): \(message)")
        } else {
            self.init(.failed, context)
        }
    }
}
