/// Reads little-endian fields from a frame whose length has already been checked.
///
/// Every decoder computes the length its flags require and compares it with the frame first, so the
/// reads here are unchecked: they are the hot path and must not branch or allocate.
@usableFromInline
struct ByteReader {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline var offset: Int

    @inlinable @inline(__always)
    init(_ bytes: UnsafeRawBufferPointer, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Bytes not read yet.
    @inlinable var remaining: Int {
        @inline(__always) get { bytes.count &- offset }
    }

    @inlinable @inline(__always)
    mutating func uint8() -> UInt8 {
        defer { offset &+= 1 }
        return bytes[offset]
    }

    @inlinable @inline(__always)
    mutating func uint16() -> UInt16 {
        defer { offset &+= 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset &+ 1]) << 8
    }

    /// A 16-bit field sent most significant byte first (the Beurer quirk).
    @inlinable @inline(__always)
    mutating func uint16BigEndian() -> UInt16 {
        defer { offset &+= 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset &+ 1])
    }

    @inlinable @inline(__always)
    mutating func uint24() -> UInt32 {
        defer { offset &+= 3 }
        return UInt32(bytes[offset]) | UInt32(bytes[offset &+ 1]) << 8 | UInt32(bytes[offset &+ 2]) << 16
    }

    @inlinable @inline(__always)
    mutating func uint32() -> UInt32 {
        let low = UInt32(uint16())
        return low | UInt32(uint16()) << 16
    }

    @inlinable @inline(__always)
    mutating func uint40() -> UInt64 {
        let low = UInt64(uint32())
        return low | UInt64(uint8()) << 32
    }

    @inlinable @inline(__always)
    mutating func medFloat16() -> MedFloat16 { MedFloat16(bitPattern: uint16()) }

    @inlinable @inline(__always)
    mutating func medFloat32() -> MedFloat32 { MedFloat32(bitPattern: uint32()) }

    /// Seven bytes as two overlapping 4-byte loads (bytes 0–3 and 3–6), rather than six narrow ones.
    @inlinable @inline(__always)
    mutating func dateTime() -> DateTime {
        defer { offset &+= 7 }
        let date = bytes.littleEndian(UInt32.self, at: offset)
        let time = bytes.littleEndian(UInt32.self, at: offset &+ 3) >> 8
        return DateTime(fields: UInt64(date) | UInt64(time) << 32)
    }

    @inlinable @inline(__always)
    mutating func skip(_ count: Int) { offset &+= count }
}

extension UnsafeRawBufferPointer {
    /// The little-endian integer at `offset`, which need not be aligned; the caller has checked the length.
    @inlinable @inline(__always)
    func littleEndian<Integer: FixedWidthInteger>(_: Integer.Type, at offset: Int) -> Integer {
        Integer(littleEndian: loadUnaligned(fromByteOffset: offset, as: Integer.self))
    }
}

/// Runs `decode` over the contiguous bytes of `bytes`, copying them only when the collection has no
/// contiguous storage.
@inline(__always)
func withContiguousBytes<Bytes: Collection<UInt8>, Value>(
    _ bytes: Bytes,
    _ decode: (UnsafeRawBufferPointer) throws(GATTDecodingError) -> Value
) throws(GATTDecodingError) -> Value {
    let direct = bytes.withContiguousStorageIfAvailable { buffer in
        Result { () throws(GATTDecodingError) in try decode(UnsafeRawBufferPointer(buffer)) }
    }
    if let direct { return try direct.get() }
    let copy = Array(bytes)
    return try copy.withUnsafeBytes { buffer in
        Result { () throws(GATTDecodingError) in try decode(buffer) }
    }.get()
}

/// Fails with `.truncated` when `bytes` is shorter than `required`.
@inlinable @inline(__always)
func requireLength(
    _ required: Int, of bytes: UnsafeRawBufferPointer, for characteristic: HealthCharacteristic
) throws(GATTDecodingError) {
    guard _fastPath(bytes.count >= required) else {
        try throwTruncation(characteristic, required: required, actual: bytes.count)
    }
}

/// Throws `.truncated`, out of line: the throw (the error built in memory, a call to the runtime's throw
/// hook) stays out of the decoders, whose cold path is then one call and whose hot path needs fewer registers.
@usableFromInline @inline(never)
func throwTruncation(_ characteristic: HealthCharacteristic, required: Int, actual: Int) throws(GATTDecodingError) -> Never {
    throw GATTDecodingError(characteristic, .truncated(required: required, actual: actual))
}
