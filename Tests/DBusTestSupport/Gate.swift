/// A door a test opens once: whoever waits on it goes on when it is open — an agent that types its passkey when
/// the test lets it, a handler that answers when told, a thread that has ended.
public final class Gate: Sendable {
    private let opened = Observed(false)

    public init() {}

    public func open() { opened.update { $0 = true } }

    public var isOpen: Bool { opened.value }

    /// Waits until the gate is open; the deadline only turns a hang into a failure.
    public func wait(within timeout: Duration = testDeadline) async throws {
        try await opened.wait(for: "the gate to open", within: timeout) { $0 ? () : nil }
    }
}
