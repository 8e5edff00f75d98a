import Foundation
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
        #expect(ExportTime.local(Date(timeIntervalSince1970: 1_782_000_000), in: ExportSamples.zone).hasSuffix("+02:00"))
    }

    @Test func datesSpansAndRefusals() throws {
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        #expect(try ExportDate.parse("30d", now: now) == now.addingTimeInterval(-30 * 86400))
        #expect(try ExportDate.parse("12w", now: now) == now.addingTimeInterval(-84 * 86400))
        #expect(try ExportDate.parse("2026-11-23T07:15:00+01:00").timeIntervalSince1970 == ExportSamples.time)
        for text in ["30x", "d", "-3d", "yesterday", "2026-13-01"] {
            #expect(throws: CuffctlFailure.self, "\(text)") { try ExportDate.parse(text, now: now) }
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
