import CuffSimulation
import DBus
import DBusTestSupport

/// START on a cuff whose timeline waits for it (a stack made with `manualStart`; docs/cuff-sim.md, "START pressed by the
/// driver"): pressed once cuffd's journal says `cuffctl start` is armed, so the measurement cannot come before it.
extension Stack {
    /// `cuffctl start ADDRESS ARGUMENTS`, with START pressed on the cuff once the session is armed; what start printed.
    func measure(_ address: String, _ arguments: [String] = ["--timeout", "30"], as user: Account? = nil) async throws -> Outcome {
        let armed = armedSessions(for: address)
        async let outcome = cuffctl(["start", address] + arguments, as: user)
        try await pressStart(address, whenArmed: armed + 1)
        return try await outcome
    }

    /// How many measurement sessions cuffd has armed for the cuff at `address` so far ("Measurement armed for …", its
    /// journal: docs/journal.md).
    func armedSessions(for address: String) -> Int {
        journalEntries().count(where: { $0["MESSAGE"]?.hasPrefix("Measurement armed for \(address):") == true })
    }

    /// Presses START on the cuff at `address` once cuffd has armed `count` sessions for it in all.
    func pressStart(_ address: String, whenArmed count: Int) async throws {
        try await journal.received.wait(for: "\(count) measurement session(s) armed for \(address) in cuffd's journal") { _ in
            self.armedSessions(for: address) >= count ? () : nil
        }
        try await pressStart(address)
    }

    /// Presses START on the cuff at `address` now: its timeline goes on from its `pressStart` step, at once if it waits
    /// there, or when it comes to it.
    func pressStart(_ address: String) async throws {
        let control = try DBusConnection.open(.address(bus.address), label: "START button", callTimeout: testDeadline)
        defer { control.close() }
        _ = try await control.call(
            BluezEmulator.controlName, BluezEmulator.controlPath, BluezEmulator.controlInterface, "PressStart", [.string(address)],
            timeout: testDeadline)
    }
}
