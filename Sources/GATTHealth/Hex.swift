/// Hex text of bytes and numbers: the one formatter of cuffd, for payloads in the journal (docs/journal.md,
/// `BP_PAYLOAD`), sync identifiers, addresses, UUIDs and messages. Digits are upper-case and zero-padded;
/// `cuffctl decode` reads ``bytes(_:separator:)`` back (docs/cuffctl.md).
public enum Hex {
    /// Two digits a byte, `separator` between them: `[0x1E, 0x8A, 0x00]` → `1E 8A 00`.
    public static func bytes(_ bytes: some Sequence<UInt8>, separator: String = " ") -> String {
        bytes.map { digits($0) }.joined(separator: separator)
    }

    /// `value` with as many digits as its width holds: `UInt8(0x0A)` → `0A`, `UInt16(0x2A35)` → `2A35`.
    public static func digits<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: Value.bitWidth / 4 - digits.count) + digits
    }
}
