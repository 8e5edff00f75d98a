// Helpers shared by the fuzz invariants. The fields are read here with their own little code, not through
// GATTHealth's ByteReader, so a reader bug cannot hide behind itself.

/// Traps with a message naming the broken invariant, so that libFuzzer reports the input as a crash.
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: " + message()) }
}

/// Runs a decoder and keeps its outcome, value or typed error.
func outcome<Value>(_ decode: () throws(GATTDecodingError) -> Value) -> Result<Value, GATTDecodingError> {
    Result { () throws(GATTDecodingError) in try decode() }
}

/// A frame shorter than its layout needs must fail as `.truncated` with exactly these two lengths.
func expectTruncation<Value>(_ result: Result<Value, GATTDecodingError>, required: Int, actual: Int, _ what: String) {
    guard case let .failure(error) = result else {
        invariant(false, "\(what): \(actual) bytes decoded although the layout needs \(required)")
        return
    }
    invariant(error.problem == .truncated(required: required, actual: actual), "\(what): wrong error \(error)")
}

/// A frame as long as its layout needs must decode.
func expectValue<Value>(_ result: Result<Value, GATTDecodingError>, _ what: String) -> Value? {
    switch result {
    case let .success(value): return value
    case let .failure(error): invariant(false, "\(what): a complete frame was refused (\(error))"); return nil
    }
}

/// Little-endian 16 bits at `offset`.
func littleEndian16(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt16 {
    UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
}

/// Big-endian 16 bits at `offset` (the Beurer quirk).
func bigEndian16(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt16 {
    UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
}

/// Little-endian 32 bits at `offset`.
func littleEndian32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
    UInt32(littleEndian16(bytes, offset)) | UInt32(littleEndian16(bytes, offset + 2)) << 16
}

/// Date Time at `offset` (docs/reference/GATT-HEALTH.md §10: year uint16, then month, day, hours, minutes, seconds).
func dateTime(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> DateTime {
    DateTime(
        year: littleEndian16(bytes, offset), month: bytes[offset + 2], day: bytes[offset + 3],
        hours: bytes[offset + 4], minutes: bytes[offset + 5], seconds: bytes[offset + 6])
}

/// The first `count` bytes as an array.
func prefix(_ bytes: UnsafeRawBufferPointer, _ count: Int) -> [UInt8] { Array(bytes.prefix(count)) }

/// What a model written from the spec tables says a decoder must produce.
enum ModelOutcome<Value> {
    case value(Value)
    case error(GATTDecodingError.Problem)
}
