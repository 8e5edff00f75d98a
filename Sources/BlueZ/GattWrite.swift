/// A write made through ``BluezClient`` (or a central standing in for it in tests), as it goes out: the characteristic, the bytes, the
/// procedure; and, once the device or bluetoothd refused it, the error they answered (docs/capture.md).
public struct GattWrite: Hashable, Sendable {
    /// `UUID` of the characteristic written, lower-case 128-bit.
    public var uuid: String
    public var bytes: [UInt8]
    public var type: BluezClient.WriteType
    /// Nil as the write goes out; the D-Bus error (name and text) when it was refused.
    public var refusal: String?

    public init(uuid: String, bytes: [UInt8], type: BluezClient.WriteType, refusal: String? = nil) {
        self.uuid = uuid.lowercased()
        self.bytes = bytes
        self.type = type
        self.refusal = refusal
    }
}
