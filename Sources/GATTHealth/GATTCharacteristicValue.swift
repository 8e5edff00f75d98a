/// A characteristic value with a decoder and an encoder.
///
/// Decoders read a borrowed byte buffer and allocate nothing; they throw ``GATTDecodingError`` for a
/// short or impossible frame and never guess. Encoders write the spec layout, so every decoded value
/// can be sent back by the emulated cuff and every encoding round-trips.
public protocol GATTCharacteristicValue: Sendable {
    /// The characteristic whose value this is.
    static var characteristic: HealthCharacteristic { get }
    /// Decodes a value as received.
    init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError)
    /// The value as the spec lays it out on the wire.
    func encoded() -> [UInt8]
}

extension GATTCharacteristicValue {
    /// Decodes a value from any byte collection (contiguous ones are not copied).
    public init(decoding bytes: some Collection<UInt8>) throws(GATTDecodingError) {
        self = try withContiguousBytes(bytes) { buffer throws(GATTDecodingError) in try Self(decoding: buffer) }
    }
}
