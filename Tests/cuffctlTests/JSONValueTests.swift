import Foundation
import Testing
@testable import cuffctl

/// cuffctl's JSON output (JSONValue), whose strings go through the one escaper cuff-forward's MQTT payloads use too.
@Suite("cuffctl's JSON")
struct JSONValueTests {
    @Test("Strings and keys escaped as RFC 8259 §7 says: short forms for \\n \\r \\t, \\u00XX for other control characters, non-ASCII and U+2028/2029 as they are")
    func escapes() {
        let value = JSONValue.object([("key\n", .string("a\"b\\c\n\r\t\u{00}\u{1F}é\u{2028}\u{2029}/")), ("n", .number("2.00"))])
        #expect(value.rendered == #"{"key\n":"a\"b\\c\n\r\t\u0000\u001fé"# + "\u{2028}\u{2029}" + #"/","n":2.00}"#)
    }

    @Test("Every control character, quote, backslash and non-ASCII text read back unchanged by Foundation's parser, native or bridged")
    func roundTrip() throws {
        let text = String(decoding: (0 ..< 0x20).map { UInt8($0) } + Array("\"\\ ü ✓ 𝄞 \u{7F}".utf8), as: UTF8.self)
        for string in [text, NSString(string: text) as String] {
            let rendered = JSONValue.array([.string(string)]).rendered
            #expect(try JSONSerialization.jsonObject(with: Data(rendered.utf8)) as? [String] == [text])
        }
    }
}
