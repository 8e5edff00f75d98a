@testable import CuffSimulation
import DBus
import Foundation
import GATTHealth
import Testing

extension EmulatorHarness {
    /// Writes `bytes`, which set the cuff's clock to `written`, to the clock characteristic at `path`, and expects the
    /// cuff's clock then to show `written` run on by no more than the time that passed from the start of the write to
    /// the clock's read: the clock runs from the write on, so that bound holds however long load makes the two calls.
    func expectClockSet(
        to written: DateTime, writing bytes: [UInt8], to path: DBusObjectPath, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let writing = ContinuousClock.now
        try await write(bytes, to: path)
        let shown = try #require(await emulator.clock(of: Self.address), sourceLocation: sourceLocation)
        let passed = ContinuousClock.now - writing
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let (shownDate, writtenDate) = (shown.date(in: calendar), written.date(in: calendar))
        let ahead = try #require(shownDate, sourceLocation: sourceLocation).timeIntervalSince(try #require(writtenDate, sourceLocation: sourceLocation))
        #expect(
            ahead >= 0 && ahead <= passed / .seconds(1),
            "the clock shows \(shown.isoString ?? "?") \(passed) after the write of \(written.isoString ?? "?") began", sourceLocation: sourceLocation)
    }
}
