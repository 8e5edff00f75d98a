import DBus

private let syncInterface = "org.cuffd.Test.Sync1"
private let syncPath: DBusObjectPath = "/org/cuffd/Test/Sync"

/// Recorded signals with sync points, so that a test can tell it has every signal a peer sent before some moment:
/// "nothing more arrived" is then checked against that moment, never against a time.
extension DBusConnection {
    /// Records the signals that match `rule`, in arrival order, together with this connection's own sync points
    /// (which are not recorded).
    public func recordSignals(matching rule: MatchRule) async throws -> StreamRecorder<DBusMessage> {
        let own = uniqueName
        let stream = try await signals(matchingAny: [rule, MatchRule(sender: own, interface: syncInterface, member: "Reached", path: syncPath)])
        return StreamRecorder(stream) { message in
            guard message.sender == own, message.interface == syncInterface, case .uint64(let mark)? = message.arguments.first else { return nil }
            return mark
        }
    }

    /// Waits until `recorder` (from `recordSignals`) holds every signal `peer` sent before this call. The bus
    /// delivers one sender's messages in the order it sent them (D-Bus Specification, "Message Bus Specification"),
    /// so `peer`'s answer to a `Peer.Ping` arrives after its earlier signals, which this connection has therefore
    /// dispatched; a signal it then sends itself comes back through the same subscription after them, so once the
    /// recorder has that one it has recorded them all.
    public func sync(_ recorder: StreamRecorder<DBusMessage>, with peer: String) async throws {
        _ = try await call(peer, "/", StandardInterface.peer, "Ping", timeout: testDeadline)
        let mark = UInt64.random(in: .min ... .max)
        try emitSignal(syncPath, syncInterface, "Reached", [.uint64(mark)])
        try await recorder.reach(mark)
    }
}
