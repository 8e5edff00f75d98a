/// A one-dimensional array literal as PostgreSQL reads it in text form (PostgreSQL 15 documentation §8.15.6,
/// "Array Input and Output Syntax"): `{"a","b \"quoted\"",NULL}`. Every element is double-quoted, so that commas,
/// braces, spaces and the word NULL inside one stay text; `"` and `\` in it are escaped with a backslash; nil is
/// an unquoted NULL. Sent as one parameter and cast (`$1::text[]`, `$2::bigint[]`), it carries a whole column of a
/// batch in one statement.
enum PostgresArray {
    static func literal(_ elements: [String?]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(elements.count * 24)
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard let element else {
                bytes += "NULL".utf8
                continue
            }
            bytes.append(UInt8(ascii: "\""))
            // Byte by byte: `"` and `\` are ASCII and never part of a multi-byte UTF-8 sequence.
            for byte in element.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
