import GATTHealth

/// A 48-bit Bluetooth device address, written `C4:F3:12:53:F2:C9` (most significant byte first), as
/// BlueZ's `Address` properties and object paths spell it.
public struct BluetoothAddress: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    /// The six bytes, most significant first.
    public let bytes: [UInt8]

    /// Parses `XX:XX:XX:XX:XX:XX` (either case); nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.bytes = bytes
    }

    /// Upper-case `XX:XX:XX:XX:XX:XX`.
    public var description: String {
        Hex.bytes(bytes, separator: ":")
    }

    /// The last element of a BlueZ device object path: `dev_C4_F3_12_53_F2_C9`
    /// (BlueZ `doc/device-api.txt`: "Object path [variable prefix]/{hci0,hci1,...}/dev_XX_XX_XX_XX_XX_XX").
    public var objectPathElement: String {
        "dev_" + String(description.map { $0 == ":" ? "_" : $0 })
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let address = BluetoothAddress(text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not an address like C4:F3:12:53:F2:C9"))
        }
        self = address
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
