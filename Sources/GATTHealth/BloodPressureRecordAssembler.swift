/// Joins Blood Pressure Record 0x2B36 segments into whole records (docs/reference/GATT-HEALTH.md §7).
///
/// A first segment starts a record (dropping any unfinished one); later segments must carry the next
/// rolling counter value; the last segment completes the record. Records carry an E2E-CRC (the final
/// two bytes) only when the cuff's Blood Pressure Feature has bit 6 set.
public struct BloodPressureRecordAssembler: Sendable {
    /// A complete stored record.
    public struct Record: Hashable, Sendable {
        public var sequenceNumber: UInt16
        /// The 16-bit UUID of the recorded characteristic (0x2B34 or 0x2A35).
        public var recordedCharacteristicUUID: UInt16
        /// The recorded characteristic's value, without the E2E-CRC.
        public var recordedValue: [UInt8]
        /// The E2E-CRC as sent, when the feature announces one. Its algorithm is unverified for BPS
        /// (CGMS uses CRC-16/MCRF4XX), so it is kept, not checked.
        public var e2eCRC: UInt16?

        /// Decodes the recorded value as the characteristic its UUID names.
        public func decodeRecordedValue() throws(GATTDecodingError) -> DecodedCharacteristic {
            switch HealthCharacteristic(rawValue: recordedCharacteristicUUID) {
            case .enhancedBloodPressureMeasurement:
                .enhancedBloodPressureMeasurement(try EnhancedBloodPressureMeasurement(decoding: recordedValue))
            case .bloodPressureMeasurement:
                .bloodPressureMeasurement(try BloodPressureMeasurement(decoding: recordedValue))
            default:
                throw GATTDecodingError(
                    .bloodPressureRecord, .unsupportedRecordedCharacteristic(recordedCharacteristicUUID))
            }
        }
    }

    private let hasE2ECRC: Bool
    private var pending: (sequenceNumber: UInt16, uuid: UInt16, nextCounter: UInt8, value: [UInt8])?

    /// An assembler for a cuff whose feature says whether records end in an E2E-CRC.
    public init(feature: BloodPressureFeature) {
        hasE2ECRC = feature.contains(.e2eCRC)
    }

    /// Adds one segment; returns the record it completes, if any.
    public mutating func append(_ bytes: [UInt8]) throws(GATTDecodingError) -> Record? {
        let segment = try BloodPressureRecordSegment(decoding: bytes)
        let payload = bytes[segment.payloadRange]
        if let sequenceNumber = segment.sequenceNumber, let uuid = segment.recordedCharacteristicUUID {
            pending = (sequenceNumber, uuid, (segment.counter + 1) & 0x3F, Array(payload))
        } else {
            guard var current = pending else {
                throw GATTDecodingError(.bloodPressureRecord, .segmentWithoutFirst)
            }
            guard segment.counter == current.nextCounter else {
                pending = nil
                throw GATTDecodingError(
                    .bloodPressureRecord, .segmentOutOfOrder(expected: current.nextCounter, actual: segment.counter))
            }
            current.value.append(contentsOf: payload)
            current.nextCounter = (current.nextCounter + 1) & 0x3F
            pending = current
        }
        guard segment.isLast, let complete = pending else { return nil }
        pending = nil
        return try Self.record(complete.sequenceNumber, complete.uuid, complete.value, hasE2ECRC: hasE2ECRC)
    }

    private static func record(
        _ sequenceNumber: UInt16, _ uuid: UInt16, _ value: [UInt8], hasE2ECRC: Bool
    ) throws(GATTDecodingError) -> Record {
        guard hasE2ECRC else {
            return Record(sequenceNumber: sequenceNumber, recordedCharacteristicUUID: uuid, recordedValue: value)
        }
        guard value.count >= 2 else {
            throw GATTDecodingError(.bloodPressureRecord, .truncated(required: 2, actual: value.count))
        }
        let crc = UInt16(value[value.count - 2]) | UInt16(value[value.count - 1]) << 8
        return Record(
            sequenceNumber: sequenceNumber, recordedCharacteristicUUID: uuid,
            recordedValue: Array(value.dropLast(2)), e2eCRC: crc)
    }
}
