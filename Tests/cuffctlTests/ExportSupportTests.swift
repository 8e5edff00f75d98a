import Foundation
import GATTHealth
import Testing
@testable import cuffctl

/// What every export format relies on: times, dates and spans, name-based UUIDs (docs/export.md).
@Suite("Export support")
struct ExportSupportTests {
    @Test func timesInAZoneWithItsOffsetAndInUTC() {
        let date = Date(timeIntervalSince1970: ExportSamples.time)
        #expect(ExportTime.local(date, in: ExportSamples.zone) == "2026-11-23T07:15:00+01:00")
        #expect(ExportTime.local(date, in: TimeZone(identifier: "America/St_Johns")!) == "2026-11-23T02:45:00-03:30")
        #expect(ExportTime.local(date, in: TimeZone(identifier: "UTC")!) == "2026-11-23T06:15:00+00:00")
        #expect(ExportTime.utc(date) == "2026-11-23T06:15:00Z")
        #expect(ExportTime.utc(date.addingTimeInterval(0.25)) == "2026-11-23T06:15:00.250Z")
        #expect(ExportTime.utc(date.addingTimeInterval(0.9996)) == "2026-11-23T06:15:01Z", "rounded to the millisecond first")
        #expect(ExportTime.local(Date(timeIntervalSince1970: 1_782_000_000), in: ExportSamples.zone).hasSuffix("+02:00"))
    }

    /// The arithmetic calendar against Foundation's Gregorian one where both are Gregorian (Foundation's
    /// turns Julian before October 1582; ISO 8601 and FHIR's dateTime stay Gregorian): every 28 February and
    /// 1 March of four centuries and 2 000 random days up to 9999; and the first and last days of the
    /// supported years, 719 162 days before and 2 932 896 days after 1970-01-01.
    @Test func civilDatesAgreeWithFoundationsCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func daysSinceUnixEpoch(_ year: Int, _ month: Int, _ day: Int) -> Int {
            Int((calendar.date(from: DateComponents(year: year, month: month, day: day))!.timeIntervalSince1970 / 86_400).rounded(.down))
        }
        var days = [-1, 0, 1] + (0 ..< 2_000).map { _ in Int.random(in: daysSinceUnixEpoch(1583, 1, 1) ... daysSinceUnixEpoch(9999, 12, 31)) }
        for year in 1900 ... 2300 { days += [daysSinceUnixEpoch(year, 2, 28), daysSinceUnixEpoch(year, 3, 1)] }
        for day in days {
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(day) * 86_400))
            let civil = ProlepticGregorian.date(days: day + ProlepticGregorian.unixEpochDay)
            #expect([civil.year, civil.month, civil.day] == [parts.year, parts.month, parts.day], "day \(day)")
        }
        #expect(ProlepticGregorian.date(days: -719_162 + ProlepticGregorian.unixEpochDay) == (1, 1, 1))
        #expect(ProlepticGregorian.date(days: 2_932_896 + ProlepticGregorian.unixEpochDay) == (9999, 12, 31))
        #expect(ExportTime.utc(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }

    @Test func datesSpansAndRefusals() throws {
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        #expect(try DateArgument.parse("30d", now: now) == now.addingTimeInterval(-30 * 86400))
        #expect(try DateArgument.parse("12w", now: now) == now.addingTimeInterval(-84 * 86400))
        #expect(try DateArgument.parse("2026-11-23T07:15:00+01:00").timeIntervalSince1970 == ExportSamples.time)
        for text in ["30x", "d", "-3d", "yesterday", "2026-13-01"] {
            #expect(throws: CuffctlFailure.self, "\(text)") { try DateArgument.parse(text, now: now) }
        }
    }

    @Test func sha1MatchesFIPSExamples() {
        func hex(_ text: String) -> String { SHA1.digest(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(hex(String(repeating: "a", count: 1000)) == "291e9a6c66994949b57ba5e650361e98fc36b1ba")
    }

    @Test func version5UUIDsMatchRFC9562() {
        // RFC 9562's URL namespace; Python's uuid.uuid5(NAMESPACE_URL, "urn:cuffd") gives cuffd's namespace.
        let url = UUID(uuidString: "6ba7b811-9dad-11d1-80b4-00c04fd430c8")!
        #expect(NameBasedUUID.make("urn:cuffd", in: url) == NameBasedUUID.cuffd)
        // RFC 9562 appendix A.4: "www.example.com" in the DNS namespace.
        let dns = UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
        #expect(NameBasedUUID.make("www.example.com", in: dns).uuidString.lowercased() == "2ed6657d-e927-568b-95e1-2665a8aea6a2")
        #expect(NameBasedUUID.urn("x") == NameBasedUUID.urn("x") && NameBasedUUID.urn("x") != NameBasedUUID.urn("y"))
    }
}
