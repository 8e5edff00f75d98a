/// One indication of Blood Pressure Record 0x2B36 (BPS 1.1), a segmented container for stored records
/// (GSS via embassy-rs/bt-hci; docs/reference/GATT-HEALTH.md §7):
///
/// | field | type | notes |
/// |---|---|---|
/// | Segmentation Header | 8-bit | bit 0 first segment, bit 1 last segment, bits 2–7 rolling counter 0–63 |
/// | Sequence Number | uint16 | first segment only |
/// | UUID | uint16 | first segment only: the contained characteristic, e.g. 0x2B34 |
/// | Recorded Characteristic | rest | part of (or all of) the contained value, then an optional E2E-CRC |
///
/// Sequence Number and UUID in the first segment only follows im97mori-github/JavaBLEUtil
/// `BloodPressureRecordPacket.java` (unverified). Decoding a segment copies nothing: ``payloadRange``
/// locates its share of the record in the decoded bytes; ``BloodPressureRecordAssembler`` joins them.
public struct BloodPressureRecordSegment: Hashable, Sendable {
    public static let characteristic = HealthCharacteristic.bloodPressureRecord

    /// Bit 0 of the header.
    public var isFirst: Bool
    /// Bit 1 of the header.
    public var isLast: Bool
    /// Bits 2–7 of the header: 0–63, then 0 again.
    public var counter: UInt8
    /// The record's sequence number (first segment only).
    public var sequenceNumber: UInt16?
    /// The 16-bit UUID of the recorded characteristic (first segment only).
    public var recordedCharacteristicUUID: UInt16?
    /// Where this segment's part of the recorded value lies in the decoded bytes.
    public var payloadRange: Range<Int>

    /// Decodes one segment.
    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        try requireLength(1, of: bytes, for: Self.characteristic)
        var reader = ByteReader(bytes)
        let header = reader.uint8()
        isFirst = header & 0x01 != 0
        isLast = header & 0x02 != 0
        counter = header >> 2
        if isFirst {
            try requireLength(5, of: bytes, for: Self.characteristic)
            sequenceNumber = reader.uint16()
            recordedCharacteristicUUID = reader.uint16()
        } else {
            sequenceNumber = nil
            recordedCharacteristicUUID = nil
        }
        payloadRange = reader.offset ..< bytes.count
    }

    /// Decodes one segment from any byte collection.
    public init(decoding bytes: some Collection<UInt8>) throws(GATTDecodingError) {
        self = try withContiguousBytes(bytes) { buffer throws(GATTDecodingError) in try Self(decoding: buffer) }
    }

    /// Splits a recorded value into segments of at most `maximumSegmentLength` bytes (the ATT payload,
    /// 20 with the default MTU), starting the rolling counter at `firstCounter`.
    public static func encodeSegments(
        sequenceNumber: UInt16, recordedCharacteristicUUID: UInt16, recordedValue: [UInt8],
        maximumSegmentLength: Int = 20, firstCounter: UInt8 = 0
    ) -> [[UInt8]] {
        precondition(maximumSegmentLength > 5, "a first segment needs 5 header bytes and some payload")
        var segments: [[UInt8]] = []
        var remaining = recordedValue[...]
        var counter = firstCounter & 0x3F
        repeat {
            var writer = ByteWriter(capacity: maximumSegmentLength)
            let isFirst = segments.isEmpty
            let room = maximumSegmentLength - (isFirst ? 5 : 1)
            let isLast = remaining.count <= room
            writer.uint8(counter << 2 | (isLast ? 0x02 : 0) | (isFirst ? 0x01 : 0))
            if isFirst {
                writer.uint16(sequenceNumber)
                writer.uint16(recordedCharacteristicUUID)
            }
            writer.append(contentsOf: remaining.prefix(room))
            remaining = remaining.dropFirst(room)
            segments.append(writer.bytes)
            counter = (counter + 1) & 0x3F
        } while !remaining.isEmpty
        return segments
    }
}
