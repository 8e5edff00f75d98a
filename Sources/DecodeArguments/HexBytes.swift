/// Bytes written as hex digits, optionally separated by spaces or colons (`1E 8A 00`, `1e:8a:00`,
/// `1E8A00`), as a command-line argument. Parsed by the command itself rather than by ArgumentParser, whose
/// message would echo the argument whole, whatever its length.
public struct HexBytes {
    public let bytes: [UInt8]

    /// What is wrong with an argument, in words, quoting at most one byte of it.
    public struct ParseError: Error, CustomStringConvertible {
        public let description: String
    }

    public static func parse(_ text: String) throws(ParseError) -> HexBytes {
        let digits = Array(text.filter { $0 != " " && $0 != ":" })
        guard digits.count.isMultiple(of: 2) else {
            throw ParseError(description: "HEX has \(digits.count) digits, an odd number: each byte is two hex digits, as in 1E 8A 00")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(digits[index ..< index + 2]), radix: 16) else {
                throw ParseError(description: "HEX byte \(index / 2 + 1), \"\(String(digits[index ..< index + 2]))\", is not two hex digits (0-9, A-F)")
            }
            bytes.append(byte)
        }
        return HexBytes(bytes: bytes)
    }
}
