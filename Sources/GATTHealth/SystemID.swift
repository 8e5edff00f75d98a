/// System ID 0x2A23 (gatt-xml `system_id.xml`; docs/reference/GATT-HEALTH.md §11): a 40-bit Manufacturer Identifier
/// then a 24-bit Organizationally Unique Identifier, least significant octet first — an EUI-64 that
/// identifies the device across gateways.
public struct SystemID: Hashable, Sendable, GATTCharacteristicValue {
    public static let characteristic = HealthCharacteristic.systemID

    /// 40 bits.
    public var manufacturerIdentifier: UInt64
    /// 24 bits.
    public var organizationallyUniqueIdentifier: UInt32

    /// A value to encode; wider inputs are cut to 40 and 24 bits.
    public init(manufacturerIdentifier: UInt64, organizationallyUniqueIdentifier: UInt32) {
        self.manufacturerIdentifier = manufacturerIdentifier & 0xFF_FFFF_FFFF
        self.organizationallyUniqueIdentifier = organizationallyUniqueIdentifier & 0xFF_FFFF
    }

    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        try requireLength(8, of: bytes, for: Self.characteristic)
        var reader = ByteReader(bytes)
        manufacturerIdentifier = reader.uint40()
        organizationallyUniqueIdentifier = reader.uint24()
    }

    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 8)
        writer.uint40(manufacturerIdentifier)
        writer.uint24(organizationallyUniqueIdentifier)
        return writer.bytes
    }

    /// Reads back ``eui64``: 16 hex digits, OUI first; nil for anything else.
    public init?(eui64: String) {
        guard eui64.count == 16, let value = UInt64(eui64, radix: 16) else { return nil }
        self.init(manufacturerIdentifier: value, organizationallyUniqueIdentifier: UInt32(value >> 40))
    }

    /// The EUI-64 as 16 upper-case hex digits, OUI first (most significant octet first).
    public var eui64: String {
        Hex.digits(UInt64(organizationallyUniqueIdentifier) << 40 | manufacturerIdentifier)
    }
}
