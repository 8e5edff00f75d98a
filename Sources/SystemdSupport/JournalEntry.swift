/// One journal entry in the native protocol (systemd's "Native Journal Protocol" document; docs/reference/BLUEZ-DBUS.md §17): `NAME=value\n`
/// per field, or, for a value holding a newline, `NAME\n` + 64-bit little-endian length + bytes + `\n`.
struct JournalEntry {
    private(set) var fields: [(name: String, value: String)] = []

    /// Adds a field; `name` must already be a valid journal name.
    mutating func append(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// The datagram.
    var serialized: [UInt8] {
        var bytes: [UInt8] = []
        for (name, value) in fields {
            bytes += name.utf8
            let valueBytes = Array(value.utf8)
            if valueBytes.contains(UInt8(ascii: "\n")) {
                bytes.append(UInt8(ascii: "\n"))
                var length = UInt64(valueBytes.count).littleEndian
                withUnsafeBytes(of: &length) { bytes += $0 }
            } else {
                bytes.append(UInt8(ascii: "="))
            }
            bytes += valueBytes
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }
}
