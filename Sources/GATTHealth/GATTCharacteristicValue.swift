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

/// A value whose layout a ``BloodPressureQuirk`` can change (0x2A35 and 0x2A36).
public protocol QuirkAwareValue: GATTCharacteristicValue {
    /// Decodes a value from a device with a known quirk (nil: as the spec lays it out).
    init(decoding bytes: UnsafeRawBufferPointer, quirk: BloodPressureQuirk?) throws(GATTDecodingError)
}

extension QuirkAwareValue {
    /// Decodes a value from any byte collection, with an optional device quirk.
    public init(decoding bytes: some Collection<UInt8>, quirk: BloodPressureQuirk?) throws(GATTDecodingError) {
        self = try withContiguousBytes(bytes) { buffer throws(GATTDecodingError) in
            try Self(decoding: buffer, quirk: quirk)
        }
    }
}
