/// Rows in the binary format of COPY (PostgreSQL 15 documentation, COPY, "Binary Format"): the signature
/// `PGCOPY\n\377\r\n\0`, a flags field and a header extension length (both 0), then each row as its number of fields and
/// each field as its length in bytes (−1 for NULL) followed by the value as the type's binary `send` function writes it
/// — integers and float8 in network byte order, text as its UTF-8 bytes —, and −1 as the trailer. The server takes the
/// values without parsing text. Written a piece at a time: ``bytes`` is what was written since the last
/// ``removeAll()``, so a page never has to sit whole in memory.
struct BinaryCopyRows {
    private(set) var bytes: [UInt8] = []

    /// The header, in a buffer of `capacity` bytes.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        bytes += "PGCOPY\n".utf8
        bytes += [0xFF, 0x0D, 0x0A, 0x00]
        append(Int32(0))  // flags: no OIDs
        append(Int32(0))  // header extension: none
    }

    /// Starts a row of `fields` fields, each then written by ``text(_:)``, ``number(_:)``, ``boolean(_:)`` or ``field(_:)`` in the table's column order.
    mutating func row(fields: Int16) { append(fields) }

    mutating func text(_ value: String?) {
        guard var value else { return append(Int32(-1)) }
        value.withUTF8 { utf8 in
            append(Int32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// An int2, int4, int8 or float8 field, by the width of `Number`.
    mutating func number<Number: PostgresBinaryNumber>(_ value: Number?) {
        guard let value else { return append(Int32(-1)) }
        append(Int32(MemoryLayout<Number>.size))
        append(value.networkBits)
    }

    /// A boolean field: one byte, 1 for true (`boolsend`).
    mutating func boolean(_ value: Bool) {
        append(Int32(1))
        bytes.append(value ? 1 : 0)
    }

    /// A field already in its type's binary form (an array of ``PostgresArray/binary(_:)``), or NULL.
    mutating func field(_ value: [UInt8]?) {
        guard let value else { return append(Int32(-1)) }
        append(Int32(value.count))
        bytes += value
    }

    /// The trailer, after the last row.
    mutating func end() { append(Int16(-1)) }

    /// Forgets what was written, keeping the buffer.
    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    private mutating func append<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }
}
