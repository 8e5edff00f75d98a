import Foundation
import ReadingColumns
import Testing

@testable import Forwarding

@Suite("JSON text")
struct JSONTextTests {
    @Test("Strings escaped as RFC 8259 §7 says, read back by Foundation's parser unchanged; numbers whole without a fraction")
    func roundTrip() throws {
        let awkward = "a \"quoted\" \\ back\nslash\u{01}\u{1F} ü ✓"
        let text = JSONText.object([
            "s": JSONText.string(awkward), "n": JSONText.number(120), "f": JSONText.number(93.25), "none": JSONText.number(nil as Double?),
            "nan": JSONText.number(.nan), "b": JSONText.boolean(true),
        ])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(parsed["s"] as? String == awkward)
        #expect(text.contains("\"n\":120,") && parsed["f"] as? Double == 93.25)
        #expect(parsed["none"] is NSNull && parsed["nan"] is NSNull && parsed["b"] as? Bool == true)
    }

    @Test("Escapes exactly as cuffctl's JSON does (one escaper): short forms for \\n \\r \\t, \\u00XX for other control characters, non-ASCII and U+2028/2029 as they are")
    func escapes() {
        #expect(JSONText.string("a\"b\\c\n\r\t\u{00}\u{1F}é\u{2028}\u{2029}/") == #""a\"b\\c\n\r\t\u0000\u001fé"# + "\u{2028}\u{2029}/\"")
    }

    @Test("A reading's MQTT payload with a person's name full of awkward characters reads back as that name")
    func payloadPerson() throws {
        let person = "Dr \"Alice\" \\ O'Neil\t\u{7}ü\u{2028}"
        let payload = ReadingMessage.payload(ReadingRecord(systolic: 120, diastolic: 80, time: 1_795_622_810, person: person, syncIdentifier: "cuffd.bp:x"))
        #expect(String(decoding: payload, as: UTF8.self).contains(#""person":"Dr \"Alice\" \\ O'Neil\t\u0007ü"# + "\u{2028}\","))
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        #expect(parsed["person"] as? String == person)
    }

    @Test("An ISO 8601 timestamp with the offset in its extended form, for the instant given")
    func timestamp() throws {
        let text = ReadingMessage.timestamp(1_795_622_810)
        #expect(text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d/) != nil, "\(text)")
        #expect(ISO8601DateFormatter().date(from: text)?.timeIntervalSince1970 == 1_795_622_810)
    }
}
