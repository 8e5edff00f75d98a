/// A JSON string (RFC 8259 §7), the one escaper of cuffctl's JSON output and cuff-forward's MQTT payloads: `"` and `\`
/// escaped, the control characters U+0000–U+001F as `\n`, `\r`, `\t` or `\u001f`, everything else — non-ASCII text,
/// U+2028 and U+2029, which §7 lets stand and ECMAScript (since ES2019) reads in strings too — copied as UTF-8. Only
/// ASCII bytes are escaped, and no byte of a multi-byte UTF-8 sequence is ASCII, so the runs between escapes are copied
/// whole. No Foundation: cuff-forward links FoundationEssentials only (docs/architecture.md).
public enum JSONString {
    /// Appends `string`, quoted and escaped, to `bytes`.
    public static func append(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes += UnsafeBufferPointer(rebasing: utf8[runStart ..< index])
                appendEscape(of: byte, to: &bytes)
                runStart = index + 1
            }
            bytes += UnsafeBufferPointer(rebasing: utf8[runStart...])
        }
        // A native string's bytes in place; any other (a bridged one) copied to native first.
        if string.utf8.withContiguousStorageIfAvailable(escaped) == nil {
            var native = string
            native.withUTF8(escaped)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `string` quoted and escaped, as text.
    public static func quoted(_ string: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count + 2)
        append(string, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendEscape(of byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
        default:
            let digits = Array("0123456789abcdef".utf8)
            bytes += [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
        }
    }
}
