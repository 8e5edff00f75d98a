/// Reader for the flat JSON objects the engine writes itself (``SQLiteCoding/json(_:)-metadata``):
/// `{"key":value,…}` with string, number or boolean values. Faster than `JSONSerialization` on
/// the query path (hundreds of rows per "last 100 readings"); returns nil on anything else, and
/// the caller falls back to `JSONSerialization`.
struct SQLiteFlatJSON {
    enum Scalar: Equatable {
        case string(String)
        case integer(Int64)
        case double(Double)
        case bool(Bool)
    }

    static func parse(_ text: String) -> [(String, Scalar)]? {
        var text = text
        return text.withUTF8 { buffer in parse(buffer) }
    }

    /// Parses a NUL-free buffer; reads past the end see 0 (a sentinel), so every index check is a
    /// byte comparison.
    private static func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> [(String, Scalar)]? {
        let count = buffer.count
        let utf8 = SentinelBytes(buffer: buffer, count: count)
        var i = 0
        func skipSpace() { while utf8[i] == 0x20 || utf8[i] == 0x0A || utf8[i] == 0x0D || utf8[i] == 0x09 { i += 1 } }
        func string() -> String? {
            guard utf8[i] == 0x22 else { return nil }
            i += 1
            // Fast path: no escape before the closing quote.
            var j = i
            while j < count, buffer[j] != 0x22, buffer[j] != 0x5C { j += 1 }
            if j < count, buffer[j] == 0x22 {
                let result = String(decoding: UnsafeBufferPointer(rebasing: buffer[i..<j]), as: UTF8.self)
                i = j + 1
                return result
            }
            var bytes: [UInt8] = []
            while true {
                let c = utf8[i]
                switch c {
                case 0: return nil
                case 0x22:
                    i += 1
                    return String(decoding: bytes, as: UTF8.self)
                case 0x5C:
                    let e = utf8[i + 1]
                    i += 2
                    switch e {
                    case 0x22, 0x5C, 0x2F: bytes.append(e)
                    case 0x6E: bytes.append(0x0A)
                    case 0x72: bytes.append(0x0D)
                    case 0x74: bytes.append(0x09)
                    case 0x62: bytes.append(0x08)
                    case 0x66: bytes.append(0x0C)
                    case 0x75:
                        guard i + 4 <= count, let v = UInt32(String(decoding: UnsafeBufferPointer(rebasing: buffer[i..<i + 4]), as: UTF8.self), radix: 16),
                              let scalar = Unicode.Scalar(v) else { return nil }  // surrogate pairs: fall back
                        bytes.append(contentsOf: Array(String(Character(scalar)).utf8))
                        i += 4
                    default: return nil
                    }
                default:
                    bytes.append(c)
                    i += 1
                }
            }
        }
        skipSpace()
        guard utf8[i] == 0x7B else { return nil }
        i += 1
        var result: [(String, Scalar)] = []
        skipSpace()
        if utf8[i] == 0x7D { return result }
        while true {
            skipSpace()
            guard let key = string() else { return nil }
            skipSpace()
            guard utf8[i] == 0x3A else { return nil }
            i += 1
            skipSpace()
            let value: Scalar
            switch utf8[i] {
            case 0x22:
                guard let s = string() else { return nil }
                value = .string(s)
            case 0x74:
                guard utf8[i + 1] == 0x72, utf8[i + 2] == 0x75, utf8[i + 3] == 0x65 else { return nil }
                i += 4
                value = .bool(true)
            case 0x66:
                guard utf8[i + 1] == 0x61, utf8[i + 2] == 0x6C, utf8[i + 3] == 0x73, utf8[i + 4] == 0x65 else { return nil }
                i += 5
                value = .bool(false)
            default:
                let start = i
                var isInteger = true
                while true {
                    let c = utf8[i]
                    if c >= 0x30 && c <= 0x39 || c == 0x2D { i += 1; continue }
                    if c == 0x2E || c == 0x65 || c == 0x45 || c == 0x2B { isInteger = false; i += 1; continue }
                    break
                }
                let token = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<i]), as: UTF8.self)
                if isInteger, let v = Int64(token) { value = .integer(v) }
                else if let v = Double(token) { value = .double(v) }
                else { return nil }
            }
            result.append((key, value))
            skipSpace()
            if utf8[i] == 0x2C { i += 1; continue }
            if utf8[i] == 0x7D { return result }
            return nil
        }
    }
}

/// Bytes of a buffer, reading 0 beyond its end.
private struct SentinelBytes {
    let buffer: UnsafeBufferPointer<UInt8>
    let count: Int
    subscript(_ i: Int) -> UInt8 { i < count ? buffer[i] : 0 }
}
