import PropertyBased
import TerminalEscaping
import Testing

/// The one escaper of strings from devices on lines people read (docs/cuffctl.md, "Strings from devices").
@Suite("Terminal text")
struct TerminalTextTests {
    @Test("The issue's name and serial are shown as text: no title set, no screen cleared, no line forged")
    func hostileNameAndSerial() {
        #expect(TerminalText.escaped("\u{1B}]0;pwned\u{07}\u{1B}[2J\nX-Injected: 1") == #"\x1b]0;pwned\x07\x1b[2J\x0aX-Injected: 1"#)
        #expect(TerminalText.escaped("x\u{1B}[31mRED") == #"x\x1b[31mRED"#)
        #expect(TerminalText.escaped("tab\there\r\u{7F}\u{00}") == #"tab\x09here\x0d\x7f\x00"#)
    }

    @Test("C1 controls, bidirectional overrides and line separators escaped; a backslash doubled")
    func beyondASCII() {
        #expect(TerminalText.escaped("\u{9B}31m\u{85}") == #"\x9b31m\x85"#)
        #expect(TerminalText.escaped("SIM\u{202E}1-PB\u{2066}\u{2069}\u{2028}\u{2029}") == #"SIM\u202e1-PB\u2066\u2069\u2028\u2029"#)
        #expect(TerminalText.escaped(#"typed \x1b"#) == #"typed \\x1b"#)
    }

    @Test("Text without such characters is left as it is, non-ASCII letters and emoji included")
    func ordinaryTextUnchanged() {
        for text in ["", "BP-1", "Größe ♥ 血圧 🩺", "C4:F3:12:53:F2:C9", "cuffd project SIM-1", "a\u{200E}b"] {
            #expect(TerminalText.escaped(text) == text)
        }
    }

    @Test("Any device string: nothing a terminal acts on remains, and the escaped text reads back to the original")
    func escapedIsSafeAndReversible() async {
        await propertyCheck(count: 2_000, input: DeviceText.strings) { text in
            let escaped = TerminalText.escaped(text)
            #expect(!escaped.unicodeScalars.contains(where: DeviceText.actsOnTerminal), "\(Array(escaped.unicodeScalars))")
            #expect(Self.unescaped(escaped) == text)
            if !text.unicodeScalars.contains(where: { DeviceText.actsOnTerminal($0) || $0 == "\\" }) { #expect(escaped == text) }
        }
    }

    /// The escaped text read back: `\\`, `\xHH` and `\uHHHH`, and nothing else after a backslash; nil when malformed —
    /// so that any ambiguity of the escaping shows as a failed round trip.
    static func unescaped(_ escaped: String) -> String? {
        var scalars = Array(escaped.unicodeScalars)[...]
        var result = String.UnicodeScalarView()
        while let scalar = scalars.popFirst() {
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            let kind = scalars.popFirst()
            switch kind {
            case "\\": result.append("\\")
            case "x", "u":
                let width = kind == "x" ? 2 : 4
                guard scalars.count >= width, let value = UInt32(String(String.UnicodeScalarView(scalars.prefix(width))), radix: 16),
                      let decoded = Unicode.Scalar(value)
                else { return nil }
                result.append(decoded)
                scalars = scalars.dropFirst(width)
            default: return nil
            }
        }
        return String(result)
    }
}
