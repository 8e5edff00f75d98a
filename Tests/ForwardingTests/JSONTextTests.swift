import Foundation
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

    @Test("An ISO 8601 timestamp with the offset in its extended form, for the instant given")
    func timestamp() throws {
        let text = ReadingMessage.timestamp(1_795_622_810)
        #expect(text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d/) != nil, "\(text)")
        #expect(ISO8601DateFormatter().date(from: text)?.timeIntervalSince1970 == 1_795_622_810)
    }
}
