import FoundationEssentials
import GATTHealth
import Testing
@testable import Gateway

/// A cuff's wall clock kept as a date read in UTC, and written back as the cuff showed it.
@Suite("DateTime read as UTC and back")
struct DateTimeUTCTests {
    @Test("DateTime(utc:) inverts dateReadAsUTC, leap days and the end of a year included", arguments: [
        DateTime(year: 2026, month: 11, day: 22, hours: 10, minutes: 30, seconds: 0),
        DateTime(year: 2024, month: 2, day: 29, hours: 23, minutes: 59, seconds: 59),
        DateTime(year: 1999, month: 12, day: 31, hours: 0, minutes: 0, seconds: 1),
    ])
    func roundTrip(_ clock: DateTime) throws {
        let date = try #require(clock.dateReadAsUTC)
        #expect(DateTime(utc: date) == clock)
    }

    @Test("A UTC wall clock is the instant's own fields, the fraction of a second dropped")
    func fieldsOfAnInstant() {
        // 1 790 000 000 s after the epoch is 2026-09-21 14:13:20 UTC.
        #expect(DateTime(utc: Date(timeIntervalSince1970: 1_790_000_000.9)).isoString == "2026-09-21T14:13:20")
    }
}
