import CDBus
import Dispatch
import Glibc

/// Drives one libdbus connection from a serial `DispatchQueue` (docs/reference/BLUEZ-DBUS.md §15.1, option 1):
/// each `DBusWatch` becomes a read or write `DispatchSource`, each `DBusTimeout` a timer source,
/// and a dispatch-status change schedules a drain. No thread of its own and no polling.
///
/// libdbus holds the connection lock while it calls these functions, so they only create,
/// toggle and cancel sources; the sources' handlers run later on the queue and call back into
/// libdbus there (§15: "inside these functions you may not invoke any methods on DBusConnection").
final class ConnectionLoop: @unchecked Sendable {
    let queue: DispatchQueue
    private let raw: OpaquePointer
    private var drainScheduled = false

    init(raw: OpaquePointer, queue: DispatchQueue) {
        self.raw = raw
        self.queue = queue
    }

    /// Installs the callbacks; must run on `queue`. libdbus calls `add` for the existing watches
    /// before this returns. Messages that arrived earlier are dispatched by a first drain.
    func start() {
        dispatchPrecondition(condition: .onQueue(queue))
        let context = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(raw, addWatch, removeWatch, toggleWatch, context, nil)
        dbus_connection_set_timeout_functions(raw, addTimeout, removeTimeout, toggleTimeout, context, nil)
        dbus_connection_set_dispatch_status_function(raw, dispatchStatusChanged, context, nil)
        scheduleDrain()
    }

    /// Removes the callbacks (libdbus removes every watch and timeout through them); on `queue`.
    func stop() {
        dispatchPrecondition(condition: .onQueue(queue))
        dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
    }

    /// Schedules a drain on the queue: for libdbus's dispatch-status callback, which may not
    /// dispatch itself.
    func scheduleDrain() {
        guard !drainScheduled else { return }
        drainScheduled = true
        queue.async { [self] in
            drainScheduled = false
            drain()
        }
    }

    /// Dispatches queued messages until none remain; `NEED_MEMORY` retries a little later. On
    /// the queue, outside any libdbus callback.
    private func drain() {
        var status = DBUS_DISPATCH_DATA_REMAINS
        while status == DBUS_DISPATCH_DATA_REMAINS {
            status = dbus_connection_dispatch(raw)
        }
        if status == DBUS_DISPATCH_NEED_MEMORY {
            queue.asyncAfter(deadline: .now() + .milliseconds(10)) { [self] in scheduleDrain() }
        }
    }

    /// A watch or timeout was handled: what it read is dispatched at once, without another hop.
    fileprivate func sourceFired() {
        drain()
    }
}

/// One libdbus watch: a read or a write source on its descriptor, resumed while enabled.
private final class WatchSource {
    let source: DispatchSourceProtocol
    let descriptor: Int32
    var resumed = false

    init(watch: OpaquePointer, loop: ConnectionLoop) {
        // The source watches a duplicate, closed only by its cancel handler: libdbus closes its
        // own descriptor right after removing a watch, and libdispatch must not see a descriptor
        // closed (and its number reused) before the source's cancellation has completed.
        descriptor = dup(dbus_watch_get_unix_fd(watch))
        let flags = dbus_watch_get_flags(watch)
        let readable = flags & UInt32(DBUS_WATCH_READABLE.rawValue) != 0
        let source: DispatchSourceProtocol = readable
            ? DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: loop.queue)
            : DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: loop.queue)
        source.setEventHandler { [unowned loop] in
            // A watch is removed (and its source cancelled) before libdbus frees it.
            dbus_watch_handle(watch, flags)
            loop.sourceFired()
        }
        source.setCancelHandler { [descriptor] in close(descriptor) }
        self.source = source
    }

    func setEnabled(_ enabled: Bool) {
        guard enabled != resumed else { return }
        resumed = enabled
        if enabled { source.resume() } else { source.suspend() }
    }

    /// Watches are removed only when the transport disconnects or the loop stops, so the socket
    /// is shut down here: peers see the disconnect now, not when the duplicate is closed.
    func cancel() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        source.cancel()
        // A suspended source must be resumed once to deliver its cancellation.
        if !resumed { source.resume() }
    }
}

/// One libdbus timeout: a repeating timer at the timeout's interval while enabled.
private final class TimeoutSource {
    let timer: DispatchSourceTimer
    let timeout: OpaquePointer
    var resumed = false

    init(timeout: OpaquePointer, loop: ConnectionLoop) {
        self.timeout = timeout
        timer = DispatchSource.makeTimerSource(queue: loop.queue)
        timer.setEventHandler { [unowned loop] in
            dbus_timeout_handle(timeout)
            loop.sourceFired()
        }
    }

    func setEnabled(_ enabled: Bool) {
        if enabled {
            // libdbus: a re-enabled timeout starts its interval again.
            let interval = DispatchTimeInterval.milliseconds(Int(dbus_timeout_get_interval(timeout)))
            timer.schedule(deadline: .now() + interval, repeating: interval)
        }
        guard enabled != resumed else { return }
        resumed = enabled
        if enabled { timer.resume() } else { timer.suspend() }
    }

    func cancel() {
        timer.cancel()
        if !resumed { timer.resume() }
    }
}

private func loop(_ context: UnsafeMutableRawPointer?) -> ConnectionLoop {
    Unmanaged<ConnectionLoop>.fromOpaque(context!).takeUnretainedValue()
}

private let addWatch: DBusAddWatchFunction = { watch, context in
    let source = WatchSource(watch: watch!, loop: loop(context))
    dbus_watch_set_data(watch, Unmanaged.passRetained(source).toOpaque(), nil)
    source.setEnabled(dbus_watch_get_enabled(watch) != 0)
    return 1
}

private let removeWatch: DBusRemoveWatchFunction = { watch, _ in
    guard let data = dbus_watch_get_data(watch) else { return }
    let source = Unmanaged<WatchSource>.fromOpaque(data).takeRetainedValue()
    dbus_watch_set_data(watch, nil, nil)
    source.cancel()
}

private let toggleWatch: DBusWatchToggledFunction = { watch, _ in
    guard let data = dbus_watch_get_data(watch) else { return }
    Unmanaged<WatchSource>.fromOpaque(data).takeUnretainedValue().setEnabled(dbus_watch_get_enabled(watch) != 0)
}

private let addTimeout: DBusAddTimeoutFunction = { timeout, context in
    let source = TimeoutSource(timeout: timeout!, loop: loop(context))
    dbus_timeout_set_data(timeout, Unmanaged.passRetained(source).toOpaque(), nil)
    source.setEnabled(dbus_timeout_get_enabled(timeout) != 0)
    return 1
}

private let removeTimeout: DBusRemoveTimeoutFunction = { timeout, _ in
    guard let data = dbus_timeout_get_data(timeout) else { return }
    let source = Unmanaged<TimeoutSource>.fromOpaque(data).takeRetainedValue()
    dbus_timeout_set_data(timeout, nil, nil)
    source.cancel()
}

private let toggleTimeout: DBusTimeoutToggledFunction = { timeout, _ in
    guard let data = dbus_timeout_get_data(timeout) else { return }
    Unmanaged<TimeoutSource>.fromOpaque(data).takeUnretainedValue().setEnabled(dbus_timeout_get_enabled(timeout) != 0)
}

/// §15: "dbus_connection_dispatch() MUST NOT BE CALLED" here; only note that a drain is due.
private let dispatchStatusChanged: DBusDispatchStatusFunction = { _, status, context in
    if status == DBUS_DISPATCH_DATA_REMAINS { loop(context).scheduleDrain() }
}
