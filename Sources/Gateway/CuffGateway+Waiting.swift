import BlueZ

/// Waiting for a state — bluetoothd's mirror, or the Gateway's own view of it — asked again on each event that may
/// change it, never polled, and bounded on the Gateway's clock (docs/gateway.md, "Seams").
extension CuffGateway {
    /// Waits until `decide` says true (reached) or false (it will not be) of the central's state; nil means keep
    /// waiting. Subscribes before it first asks, so a change between the question and the subscription is not
    /// missed (BlueZ's own waits keep that order, docs/reference/BLUEZ-DBUS.md §6). Returns `decide`'s answer, or
    /// false once `timeout` has passed on ``clock`` or the task is canceled.
    nonisolated func wait(upTo timeout: Duration, deciding decide: @escaping @Sendable () async -> Bool?) async -> Bool {
        await wait(upTo: timeout, askingAfterEach: await bluetooth.events(), deciding: decide)
    }

    /// Waits until `holds` is true of the central's state, at most `timeout`; whether it came to be.
    nonisolated func wait(upTo timeout: Duration, until holds: @escaping @Sendable () async -> Bool) async -> Bool {
        await wait(upTo: timeout, deciding: { await holds() ? true : nil })
    }

    /// Waits until `holds` is true of the Gateway's own state, asked again after each event the Gateway emits (every
    /// change a subscriber can see is announced so), at most `timeout`; whether it came to be.
    nonisolated func waitForGateway(upTo timeout: Duration, until holds: @escaping @Sendable () async -> Bool) async -> Bool {
        await wait(upTo: timeout, askingAfterEach: subscribers.subscribe(), deciding: { await holds() ? true : nil })
    }

    /// Asks `decide` now and after each of `events`, subscribed by the caller before it, until it answers, at most
    /// `timeout` on ``clock``.
    private nonisolated func wait<Event: Sendable>(
        upTo timeout: Duration, askingAfterEach events: AsyncStream<Event>, deciding decide: @escaping @Sendable () async -> Bool?
    ) async -> Bool {
        if let verdict = await decide() { return verdict }
        let clock = clock
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in events {
                    if let verdict = await decide() { return verdict }
                }
                return false
            }
            group.addTask {
                try? await clock.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
