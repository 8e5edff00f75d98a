// The invariants the fuzzer holds every decoder to. Each restates a rule of GATT-HEALTH.md independently
// of the decoder, so a decoder that drifts from the spec traps here.

/// Traps with a message naming the broken invariant.
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: " + message()) }
}

/// 0x2A35/0x2A36: decodes exactly when the frame holds what its flags announce; what decodes re-encodes to
/// the same bytes (but the unused ICP slots, which the encoder fills with NaN); trailing bytes are counted.
func checkBloodPressureFrame<Value: QuirkAwareValue & Equatable>(
    _ bytes: UnsafeRawBufferPointer, as: Value.Type, quirk: BloodPressureQuirk?
) {
    let required: Int? = bytes.first.map { flags in
        let user = quirk == .beurerByteSwapped ? 1 : Int(flags >> 3 & 1)
        return 7 + 7 * Int(flags >> 1 & 1) + 2 * Int(flags >> 2 & 1) + user + 2 * Int(flags >> 4 & 1)
    }
    let decoded = Result { () throws(GATTDecodingError) in try Value(decoding: bytes, quirk: quirk) }
    guard let required, bytes.count >= required else {
        guard case let .failure(error) = decoded, error.isTruncation else {
            invariant(false, "a frame shorter than its flags announce decoded"); return
        }
        return
    }
    guard case let .success(value) = decoded else { invariant(false, "a complete frame was refused"); return }
    let trailing = (value as? BloodPressureMeasurement)?.trailingByteCount ?? (value as? IntermediateCuffPressure)?.trailingByteCount
    invariant(trailing == bytes.count - required, "trailing bytes miscounted")
    guard quirk == nil else { return }
    var expected = Array(bytes.prefix(required))
    if Value.self == IntermediateCuffPressure.self { expected.replaceSubrange(3 ..< 7, with: [0xFF, 0x07, 0xFF, 0x07]) }
    invariant(value.encoded() == expected, "re-encoding changed the frame")
    invariant((try? Value(decoding: value.encoded(), quirk: nil)) == value.withoutTrailingBytes, "decode(encode(x)) != x")
}

/// 0x2B34/0x2B35: the same rules with the BPS 1.1 layout.
func checkEnhanced<Value: GATTCharacteristicValue & Equatable>(_ bytes: UnsafeRawBufferPointer, as: Value.Type, pressures: Int) {
    let required: Int? = bytes.first.map { flags in
        1 + 2 * pressures + 4 * Int(flags >> 1 & 1) + 2 * Int(flags >> 2 & 1) + Int(flags >> 3 & 1) + 2 * Int(flags >> 4 & 1)
            + 4 * Int(flags >> 5 & 1)
    }
    let decoded = try? Value(decoding: bytes)
    guard let required, bytes.count >= required else { invariant(decoded == nil, "a short BPS 1.1 frame decoded"); return }
    guard let value = decoded else { invariant(false, "a complete BPS 1.1 frame was refused"); return }
    invariant(value.encoded() == Array(bytes.prefix(required)), "re-encoding changed the BPS 1.1 frame")
}

/// 0x2A37: length from the flags (one RR-Interval at least when bit 4 is set); the sixteen oldest intervals
/// kept, the rest counted; an odd byte counted; re-encoding reproduces the frame when nothing was omitted.
func checkHeartRateMeasurement(_ bytes: UnsafeRawBufferPointer) {
    let decoded = try? HeartRateMeasurement(decoding: bytes)
    guard let flags = bytes.first else { invariant(decoded == nil, "an empty frame decoded"); return }
    let fixed = 2 + Int(flags & 1) + 2 * Int(flags >> 3 & 1)
    let hasRR = flags & 0x10 != 0
    guard bytes.count >= fixed + (hasRR ? 2 : 0) else { invariant(decoded == nil, "a short heart rate frame decoded"); return }
    guard let value = decoded else { invariant(false, "a complete heart rate frame was refused"); return }
    let pairs = hasRR ? (bytes.count - fixed) / 2 : 0
    invariant((value.rrIntervals?.count ?? 0) == min(pairs, RRIntervals.capacity), "RR intervals lost")
    invariant(value.omittedRRIntervalCount == max(0, pairs - RRIntervals.capacity), "omitted RR intervals miscounted")
    invariant(value.trailingByteCount == bytes.count - fixed - 2 * pairs, "heart rate trailing bytes miscounted")
    if let intervals = value.rrIntervals {
        for (index, interval) in intervals.enumerated() {
            let offset = fixed + 2 * index
            invariant(interval == UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8, "RR interval \(index) misread")
        }
    }
    if value.omittedRRIntervalCount == 0 {
        invariant(value.encoded() == Array(bytes.prefix(bytes.count - value.trailingByteCount)), "re-encoding changed the heart rate frame")
    }
}

/// 0x2A52: whatever decodes re-encodes to the bytes it was decoded from.
func checkRecordAccessControlPoint(_ bytes: UnsafeRawBufferPointer) {
    guard let value = try? RecordAccessControlPoint(decoding: bytes) else { return }
    invariant(value.encoded() == Array(bytes.prefix(bytes.count - value.trailingByteCount)), "re-encoding changed the RACP value")
}

/// 0x2B36: a segment decodes when its header is whole; the input cut into segments (first byte = segment
/// length) never crashes the assembler, and every record it completes carries bytes from the input.
func checkRecordSegments(_ bytes: UnsafeRawBufferPointer) {
    if let segment = try? BloodPressureRecordSegment(decoding: bytes) {
        invariant(segment.payloadRange.upperBound == bytes.count, "a segment's payload does not end with the frame")
    } else {
        invariant(bytes.isEmpty || (bytes[0] & 1 == 1 && bytes.count < 5), "a well-formed segment header was refused")
    }
    var assembler = BloodPressureRecordAssembler(feature: bytes.count.isMultiple(of: 2) ? [.e2eCRC] : [])
    var cursor = 0
    while cursor < bytes.count {
        let length = Int(bytes[cursor]) % 24 + 1
        let segment = Array(bytes[(cursor + 1) ..< min(bytes.count, cursor + 1 + length)])
        cursor += 1 + length
        if let record = try? assembler.append(segment) {
            _ = try? record.decodeRecordedValue()
        }
    }
}

/// Date Time: decodes whenever seven bytes are there; a known time stamp prints as ISO text.
func checkDateTime(_ bytes: UnsafeRawBufferPointer) {
    checkFixedLength(bytes, as: DateTime.self, length: 7)
    if let stamp = try? DateTime(decoding: bytes) {
        invariant((stamp.isoString != nil) == stamp.isKnown, "ISO text disagrees with isKnown")
    }
}

/// Fixed-length values: decode exactly when long enough, and re-encode to their first bytes.
func checkFixedLength<Value: GATTCharacteristicValue>(_ bytes: UnsafeRawBufferPointer, as: Value.Type, length: Int) {
    let decoded = try? Value(decoding: bytes)
    invariant((decoded != nil) == (bytes.count >= length), "fixed-length decode disagrees with the length")
    if let decoded { invariant(decoded.encoded() == Array(bytes.prefix(length)), "re-encoding changed a fixed-length value") }
}

/// Device Information strings: never fail, never keep trailing NULs.
func checkDeviceInformationString(_ bytes: UnsafeRawBufferPointer) {
    let string = DeviceInformationString(decoding: bytes)
    invariant(!string.value.hasSuffix("\0"), "a trailing NUL survived")
}

/// SFLOAT and FLOAT: specials only on the five whole patterns; finite values print and convert, and
/// re-encode from their parts when the mantissa is in the encodable range.
func checkMedicalFloats(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 4 else { return }
    let short = MedFloat16(bitPattern: UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
    let long = MedFloat32(bitPattern: UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24)
    invariant((short.special != nil) == [0x07FF, 0x0800, 0x07FE, 0x0802, 0x0801].contains(short.bitPattern), "SFLOAT special misclassified")
    invariant((long.special != nil) == [0x007F_FFFF, 0x0080_0000, 0x007F_FFFE, 0x0080_0002, 0x0080_0001].contains(long.bitPattern), "FLOAT special misclassified")
    _ = short.description
    _ = long.description
    if short.isFinite {
        invariant(!short.doubleValue.isNaN, "a finite SFLOAT became NaN")
        if short.mantissa.magnitude <= MedFloat16.maximumEncodedMantissa {
            invariant(MedFloat16(mantissa: short.mantissa, exponent: short.exponent) == short, "SFLOAT parts do not rebuild it")
        }
    }
    if long.isFinite, long.mantissa.magnitude <= MedFloat32.maximumEncodedMantissa {
        invariant(MedFloat32(mantissa: long.mantissa, exponent: long.exponent) == long, "FLOAT parts do not rebuild it")
    }
}

extension QuirkAwareValue {
    /// The value as a fresh decode of its own encoding sees it: no trailing bytes.
    var withoutTrailingBytes: Self {
        var copy = self
        if var measurement = copy as? BloodPressureMeasurement {
            measurement.trailingByteCount = 0
            copy = measurement as! Self
        } else if var progress = copy as? IntermediateCuffPressure {
            progress.trailingByteCount = 0
            copy = progress as! Self
        }
        return copy
    }
}
