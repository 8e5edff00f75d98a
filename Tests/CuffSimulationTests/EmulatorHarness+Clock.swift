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
        try await expectClock(runOnFrom: written, since: writing, sourceLocation: sourceLocation)
    }

    /// Expects the cuff's clock to show `start` run on by no more than the time that passed since `moment`, a moment
    /// no later than the one the clock started from `start`: that bound holds however long load makes the calls.
    func expectClock(
        runOnFrom start: DateTime, since moment: ContinuousClock.Instant, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let shown = try #require(await emulator.clock(of: Self.address), sourceLocation: sourceLocation)
        let passed = ContinuousClock.now - moment
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let (shownDate, startDate) = (shown.date(in: calendar), start.date(in: calendar))
        let ahead = try #require(shownDate, sourceLocation: sourceLocation).timeIntervalSince(try #require(startDate, sourceLocation: sourceLocation))
        #expect(
            ahead >= 0 && ahead <= passed / .seconds(1),
            "the clock shows \(shown.isoString ?? "?") \(passed) after it started from \(start.isoString ?? "?")", sourceLocation: sourceLocation)
    }
}
