import Synchronization

/// How many signals a subscription has been handed so far, counted on the connection's queue as each is yielded.
///
/// libdbus dispatches what it reads in order, and a method's reply completes its call during that dispatch, so when a
/// call returns, every signal received before its reply has been counted. A consumer that counts what it has applied
/// can therefore tell, without waiting for any time, whether it has caught up with a reply: the sender's own order
/// (bluetoothd flushes its `PropertiesChanged` before it replies, docs/reference/BLUEZ-DBUS.md §1) carried through to
/// the consumer's state.
public final class SignalTally: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    /// Signals handed to the subscription so far.
    public var delivered: Int { count.load(ordering: .acquiring) }

    func add() { count.add(1, ordering: .releasing) }
}
