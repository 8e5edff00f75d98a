// Invariants of Heart Rate Measurement 0x2A37 (docs/reference/GATT-HEALTH.md §9, §13.6).

/// Length = 1 + (1 or 2, flag bit 0) + 2·bit3 + 2·bit4 (bit 4 promises at least one RR-Interval); shorter
/// fails as `.truncated` with that length. Value, energy and every kept interval equal the bytes; the
/// sixteen oldest intervals are kept and the rest counted; an odd byte is counted. The flags byte is kept
/// raw and picks uint8/uint16, so the encoding is canonical: it reproduces the frame up to the last kept
/// interval, and decodes back to the same value.
func checkHeartRateMeasurement(_ bytes: UnsafeRawBufferPointer) {
    let result = outcome { () throws(GATTDecodingError) in try HeartRateMeasurement(decoding: bytes) }
    guard let flags = bytes.first else { return expectTruncation(result, required: 2, actual: 0, "HRM") }
    let valueLength = 1 + Int(flags & 1)
    let hasEnergy = flags & 0x08 != 0, hasRR = flags & 0x10 != 0
    let fixed = 1 + valueLength + (hasEnergy ? 2 : 0)
    let required = fixed + (hasRR ? 2 : 0)
    guard bytes.count >= required else {
        return expectTruncation(result, required: required, actual: bytes.count, "HRM")
    }
    guard let value = expectValue(result, "HRM") else { return }

    invariant(value.heartRate == (valueLength == 2 ? littleEndian16(bytes, 1) : UInt16(bytes[1])), "heart rate misread")
    invariant(value.isSixteenBitValue == (valueLength == 2), "value format flag misread")
    let contact: HeartRateMeasurement.SensorContact = switch flags >> 1 & 3 {
    case 3: .detected
    case 2: .notDetected
    default: .notSupported
    }
    invariant(value.sensorContact == contact, "sensor contact misread")
    invariant(value.reservedFlags == flags & 0xE0, "RFU flag bits lost")
    invariant(value.energyExpended == (hasEnergy ? littleEndian16(bytes, 1 + valueLength) : nil), "energy misread")
    invariant((value.rrIntervals != nil) == hasRR, "RR presence misread")

    let pairs = hasRR ? (bytes.count - fixed) / 2 : 0
    let kept = min(pairs, RRIntervals.capacity)
    invariant((value.rrIntervals?.count ?? 0) == kept, "RR intervals lost")
    invariant(value.omittedRRIntervalCount == pairs - kept, "omitted RR intervals miscounted")
    invariant(value.trailingByteCount == bytes.count - fixed - 2 * pairs, "heart rate trailing bytes miscounted")
    for (index, interval) in (value.rrIntervals ?? RRIntervals([])).enumerated() {
        invariant(interval == littleEndian16(bytes, fixed + 2 * index), "RR interval \(index) misread")
    }

    invariant(value.encoded() == prefix(bytes, fixed + 2 * kept), "re-encoding changed the heart rate frame")
    let again = try? HeartRateMeasurement(decoding: value.encoded())
    invariant(again?.encoded() == value.encoded() && again?.omittedRRIntervalCount == 0 && again?.trailingByteCount == 0,
              "HRM decode(encode(x)) != x")
}
