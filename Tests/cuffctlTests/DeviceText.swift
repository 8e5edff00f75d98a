import PropertyBased

/// What a device in radio range may call itself (a Bluetooth name, a Device Information string), for property tests
/// of the terminal output: text with every kind of character a terminal acts on — C0 and C1 controls, DEL, escape
/// sequences, bidirectional overrides, line separators — among backslashes, `\x1b` typed out, letters and any
/// other scalar.
enum DeviceText {
    /// Strings of up to 24 scalars, each picked from one of the kinds above.
    static let strings = Gen.uint32().array(of: 0 ... 24).map { picks in
        String(String.UnicodeScalarView(picks.map(scalar)))
    }

    private static let kinds: [[Unicode.Scalar]] = [
        (0x00 ... 0x1F).map { Unicode.Scalar(UInt8($0)) },
        [Unicode.Scalar(0x7F)] + (0x80 ... 0x9F).map { Unicode.Scalar(UInt8($0)) },
        ["\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{2028}", "\u{2029}"],
        ["\\", "x", "u", "1", "b", "[", "]", ";", "0", "7"],
        Array("BP-1 Größe 血圧 é".unicodeScalars),
    ]

    /// A scalar of the kind `pick` chooses, or (one time in six) any scalar at all.
    private static func scalar(_ pick: UInt32) -> Unicode.Scalar {
        let kind = Int(pick % 6)
        guard kind < kinds.count else { return Unicode.Scalar(pick / 6 % 0x11_0000) ?? "\u{FFFD}" }
        return kinds[kind][Int(pick / 6) % kinds[kind].count]
    }

    /// Whether a terminal could act on `scalar` or take it for a line break: an independent statement of what
    /// ``TerminalText`` must never let through — Unicode's control characters (general category Cc: C0, DEL, C1),
    /// line and paragraph separators (Zl, Zp), and the bidirectional embeddings, overrides and isolates.
    static func actsOnTerminal(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        default: return scalar.properties.isBidiControl && !["\u{200E}", "\u{200F}", "\u{061C}"].contains(scalar)
        }
    }
}
