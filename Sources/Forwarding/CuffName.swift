/// A cuff's name in MQTT topics and Home Assistant's ids (docs/home-assistant.md, "Topics"): one topic level of
/// `A–Z a–z 0–9 _ -` only — never `/`, `+` or `#` (MQTT 5 §4.7.1), never empty — so that it also serves in Home
/// Assistant's `node_id` and `unique_id`, which allow nothing else; and different cuffs, different names. Made of the
/// cuff's serial number, else its Bluetooth address:
///
/// * text of those characters alone, without `__` and not shaped like the next one's name, is the name as it is;
/// * an address `C4:F3:12:53:F2:C9` is `C4_F3_12_53_F2_C9`;
/// * anything else is escaped: `A–Z a–z 0–9 -` stay, every other byte of its UTF-8 — `_` too — is `__` and two
///   hexadecimal digits (`SN/1` → `SN__2F1`, `SN_1 2` is `SN__5F1__202`); empty text is `__`.
///
/// One to one: only an escaped name holds `__`; an address's name is not a name of the first kind; within each kind
/// the text reads back from the name (an escaped name byte by byte). The first two kinds are the names cuff-forward
/// gave before it escaped, so that the cuffs whose names were already distinct keep their entities in Home Assistant.
enum CuffName {
    /// The name of the cuff a reading's `device` describes (as cuffd's feed has it).
    static func of(_ device: [String: String]) -> String {
        let serial = device["serial"].flatMap { $0.isEmpty ? nil : $0 }
        return level(serial ?? device["address"] ?? "unknown")
    }

    /// The name of the cuff called `text`.
    static func level(_ text: String) -> String {
        if isAddress(text, separator: ":") { return text.replacing(":", with: "_") }
        let kept = text.utf8.allSatisfy { isKept($0) || $0 == UInt8(ascii: "_") }
        if kept, !text.isEmpty, !text.contains("__"), !isAddress(text, separator: "_") { return text }
        guard !text.isEmpty else { return "__" }
        var name = ""
        for byte in text.utf8 {
            if isKept(byte) {
                name.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                name += "__" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0F, radix: 16, uppercase: true)
            }
        }
        return name
    }

    /// `A–Z a–z 0–9 -`.
    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// Six pairs of hexadecimal digits (ASCII, either case), joined by `separator`: a Bluetooth address as cuffd writes it.
    private static func isAddress(_ text: String, separator: Character) -> Bool {
        let pairs = text.split(separator: separator, omittingEmptySubsequences: false)
        return pairs.count == 6 && pairs.allSatisfy { $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isHexDigit } }
    }
}
