import CDBus

/// One outstanding method call: resumes its continuation exactly once, with the reply, the
/// error reply, libdbus's own `NoReply` at the timeout, or `Disconnected`/cancellation.
/// Only touched on the connection's queue.
final class PendingReply: @unchecked Sendable {
    private var continuation: CheckedContinuation<Result<DBusMessage, DBusError>, Never>?
    private var pending: OpaquePointer?
    private var cancelled = false
    private weak var connection: DBusConnection?

    func start(
        _ continuation: CheckedContinuation<Result<DBusMessage, DBusError>, Never>,
        raw message: RawMessage, on connection: DBusConnection, timeout: Duration
    ) {
        self.continuation = continuation
        defer { dbus_message_unref(message.pointer) }
        guard !cancelled else { return finish(.failure(DBusError(.noReply, "call cancelled"))) }
        guard connection.isOpen else { return finish(.failure(DBusError(.disconnected, "connection closed"))) }
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(connection.raw, message.pointer, &pending, milliseconds) != 0 else {
            return finish(.failure(DBusError(.noMemory, "out of memory sending a call")))
        }
        guard let pending else {
            return finish(.failure(DBusError(.disconnected, "connection closed")))
        }
        self.pending = pending
        self.connection = connection
        connection.pendingReplies[ObjectIdentifier(self)] = self
        let context = Unmanaged.passRetained(self).toOpaque()
        dbus_pending_call_set_notify(pending, replyArrived, context, releaseContext)
        // The reply cannot complete between the two calls above (completion happens on this
        // queue), but check anyway: a completed call does not notify again.
        if dbus_pending_call_get_completed(pending) != 0 { complete() }
    }

    fileprivate func complete() {
        guard let pending, continuation != nil else { return }
        guard let reply = dbus_pending_call_steal_reply(pending) else {
            return finish(.failure(DBusError(.noReply, "no reply")))
        }
        let message = DBusMessage(raw: reply)
        dbus_message_unref(reply)
        if let error = message.error {
            finish(.failure(error))
        } else {
            finish(.success(message))
        }
    }

    func cancel() {
        cancelled = true
        if let pending { dbus_pending_call_cancel(pending) }
        finish(.failure(DBusError(.noReply, "call cancelled")))
    }

    /// The connection is gone: libdbus drops its timeouts with the loop, so the call is failed
    /// here rather than left waiting for a completion that may never be dispatched.
    func disconnect() {
        if let pending { dbus_pending_call_cancel(pending) }
        finish(.failure(DBusError(.disconnected, "the connection to the bus was lost")))
    }

    private func finish(_ result: Result<DBusMessage, DBusError>) {
        continuation?.resume(returning: result)
        continuation = nil
        connection?.pendingReplies[ObjectIdentifier(self)] = nil
        if let pending {
            dbus_pending_call_unref(pending)
            self.pending = nil
        }
    }
}

private let replyArrived: DBusPendingCallNotifyFunction = { _, context in
    Unmanaged<PendingReply>.fromOpaque(context!).takeUnretainedValue().complete()
}

private let releaseContext: DBusFreeFunction = { context in
    Unmanaged<PendingReply>.fromOpaque(context!).release()
}
