/// Text that came from a device — a Bluetooth name, a Device Information string, an Omron model — made safe for a
/// line a person reads (docs/cuffctl.md, "Strings from devices"): the one escaper of cuffctl's human output, of the
/// lines cuffd logs to stderr and of the journal's `MESSAGE` (docs/journal.md). A cuff in radio range of a gateway
/// names itself what it likes, and `cuffctl scan` shows every advertiser, paired or not; printed raw, its name would
/// set a terminal's title, clear the screen or forge lines of output.
///
/// Escaped, as `\x1b`-style text (two lower-case hex digits): the C0 controls U+0000–U+001F (tab and newline
/// included: one field stays one line), DEL U+007F and the C1 controls U+0080–U+009F (U+009B is a one-byte CSI to
/// some terminals). Escaped as `\u202e`-style text (four digits): U+2028 and U+2029, which some programs take for line
/// breaks, and the bidirectional embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, which reorder
/// what a terminal shows (an address shown backwards beside a name). A backslash becomes `\\`, so that `\x1b` typed by
/// the device reads `\\x1b` and no escape is ambiguous: the escaped text reads back to exactly what the device sent.
/// Everything else — non-ASCII letters, emoji, U+FFFD of repaired UTF-8 — is copied as it is. No Foundation: cuffd's
/// log handler (SystemdSupport) uses it too.
public enum TerminalText {
    /// `text` with every character that could act on a terminal or break a line escaped; `text` itself when it has none.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscaping) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscaping(scalar) else {
                escaped.append(scalar)
                continue
            }
            escaped.append(contentsOf: escape(of: scalar).unicodeScalars)
        }
        return String(escaped)
    }

    /// Whether `scalar` is shown escaped (the list above).
    public static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00 ... 0x1F, 0x5C, 0x7F ... 0x9F, 0x2028 ... 0x202E, 0x2066 ... 0x2069: true
        default: false
        }
    }

    private static func escape(of scalar: Unicode.Scalar) -> String {
        if scalar == "\\" { return "\\\\" }
        let digits = String(scalar.value, radix: 16)
        return scalar.value <= 0xFF
            ? "\\x" + String(repeating: "0", count: 2 - digits.count) + digits
            : "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
