/// 16-bit assigned numbers and their 128-bit form on the Bluetooth Base UUID
/// `00000000-0000-1000-8000-00805F9B34FB` (Bluetooth Core Specification, Vol 3, Part B, §2.5.1).
public enum BluetoothUUID {
    private static let baseSuffix = "-0000-1000-8000-00805f9b34fb"

    /// `0x2A35` → `00002a35-0000-1000-8000-00805f9b34fb`.
    public static func expand(_ number: UInt16) -> String {
        "0000" + Hex.digits(number).lowercased() + baseSuffix
    }

    /// The 16-bit number of `2A35`, `0x2A35` or a 128-bit UUID on the Base UUID; nil for anything else.
    public static func shortNumber(_ text: String) -> UInt16? {
        var digits = Substring(text.lowercased())
        if digits.count == 36 {
            guard digits.hasPrefix("0000"), digits.hasSuffix(baseSuffix) else { return nil }
            digits = digits.dropFirst(4).prefix(4)
        } else if digits.hasPrefix("0x") {
            digits = digits.dropFirst(2)
        }
        guard digits.count == 4 else { return nil }
        return UInt16(digits, radix: 16)
    }

    /// The 128-bit form, lower case, of `2A35`, `0x2A35` or a 128-bit UUID (`8-4-4-4-12` hex digits, any case); nil for
    /// anything else.
    public static func canonical(_ text: String) -> String? {
        if let number = shortNumber(text) { return expand(number) }
        let groups = text.lowercased().split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12], groups.allSatisfy({ $0.allSatisfy(\.isHexDigit) }) else { return nil }
        return text.lowercased()
    }

    /// How a scenario file writes `uuid` (docs/cuff-sim.md): `2A35` for one on the Base UUID, else the 128-bit form.
    public static func compact(_ uuid: String) -> String {
        shortNumber(uuid).map { Hex.digits($0) } ?? uuid.lowercased()
    }
}
