/// PnP ID 0x2A50 (gatt-xml `pnp_id.xml`; docs/reference/GATT-HEALTH.md §11): Vendor ID Source (1 = Bluetooth SIG,
/// 2 = USB-IF), Vendor ID, Product ID, Product Version — 7 bytes.
public struct PnPID: Hashable, Sendable, GATTCharacteristicValue {
    public static let characteristic = HealthCharacteristic.pnpID

    public var vendorIDSource: UInt8
    public var vendorID: UInt16
    public var productID: UInt16
    public var productVersion: UInt16

    /// A value to encode.
    public init(vendorIDSource: UInt8, vendorID: UInt16, productID: UInt16, productVersion: UInt16) {
        self.vendorIDSource = vendorIDSource
        self.vendorID = vendorID
        self.productID = productID
        self.productVersion = productVersion
    }

    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        try requireLength(7, of: bytes, for: Self.characteristic)
        var reader = ByteReader(bytes)
        vendorIDSource = reader.uint8()
        vendorID = reader.uint16()
        productID = reader.uint16()
        productVersion = reader.uint16()
    }

    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 7)
        writer.uint8(vendorIDSource)
        writer.uint16(vendorID)
        writer.uint16(productID)
        writer.uint16(productVersion)
        return writer.bytes
    }
}
