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

    /// A one-dimensional array of numbers in binary form, as `array_recv` reads it (PostgreSQL 15 source,
    /// `src/backend/utils/adt/arrayfuncs.c`): the number of dimensions (1), whether any element is NULL, the
    /// element type's OID, the length and lower bound (1) of the dimension, then each element as its length in bytes
    /// (−1 for NULL) and its value in network byte order. Sent with `$n::float8[]` and the like, so the types agree.
    static func binary<Element: PostgresBinaryNumber>(_ elements: [Element?]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20 + elements.count * (4 + MemoryLayout<Element>.size))
        func append<Integer: FixedWidthInteger>(_ value: Integer) {
            withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
        }
        append(Int32(1))
        append(Int32(elements.contains { $0 == nil } ? 1 : 0))
        append(Element.typeOID)
        append(Int32(elements.count))
        append(Int32(1))
        for element in elements {
            guard let element else {
                append(Int32(-1))
                continue
            }
            append(Int32(MemoryLayout<Element>.size))
            append(element.networkBits)
        }
        return bytes
    }
}

/// A number type PostgreSQL has a fixed-size binary form for: its OID (`pg_type`) and its bits.
protocol PostgresBinaryNumber {
    associatedtype Bits: FixedWidthInteger
    static var typeOID: UInt32 { get }
    var networkBits: Bits { get }
}

extension Double: PostgresBinaryNumber {
    static var typeOID: UInt32 { 701 }  // float8
    var networkBits: UInt64 { bitPattern }
}

/// An integer's bits are itself.
extension PostgresBinaryNumber where Self: FixedWidthInteger, Bits == Self {
    var networkBits: Self { self }
}

extension Int64: PostgresBinaryNumber {
    static var typeOID: UInt32 { 20 }  // int8
}

extension Int32: PostgresBinaryNumber {
    static var typeOID: UInt32 { 23 }  // int4
}

extension Int16: PostgresBinaryNumber {
    static var typeOID: UInt32 { 21 }  // int2
}
