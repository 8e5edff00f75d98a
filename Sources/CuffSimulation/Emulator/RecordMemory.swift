import GATTHealth

/// A BPS 1.1 cuff's stored records and what its Record Access Control Point does with a write (docs/reference/GATT-HEALTH.md
/// §7–§8), as a value: whoever hosts the cuff (cuff-sim's bluetoothd, an in-memory central in tests) checks each write
/// here and sends what it selects, 0x2B36 segment by segment, then the response on 0x2A52.
public struct RecordMemory: Sendable {
    /// The records in the cuff's memory, by ascending sequence number.
    public private(set) var records: [RecordSpec]
    /// The rolling counter of the next 0x2B36 segment (0–63, carried on from record to record).
    private var segmentCounter: UInt8 = 0
    /// The Blood Pressure Feature: whether the records carry an E2E-CRC.
    private let feature: BloodPressureFeature
    /// The largest segment, header included.
    private let segmentSize: Int

    public init(_ spec: CuffSpec) {
        records = (spec.records ?? []).sorted { $0.sequence < $1.sequence }
        feature = (try? BloodPressureFeature(decoding: spec.feature.bytes)) ?? []
        segmentSize = spec.recordSegmentSize ?? GattLayout.attPayload
    }

    /// Checks a write the way the cuff's ATT server does, and applies a delete. The responses need indications on
    /// 0x2A52 (`controlPointIndicating`), a report also on 0x2B36 (`recordsIndicating`), else "CCCD Improperly
    /// Configured"; while a procedure runs (`busy`) only Abort is taken, else "Procedure Already in Progress".
    mutating func accept(_ value: [UInt8], controlPointIndicating: Bool, recordsIndicating: Bool, busy: Bool) throws(ATTError) -> RecordAccessRequest {
        guard controlPointIndicating else { throw .cccdImproperlyConfigured }
        let request = RecordAccessRequest(value, records: records)
        switch request.action {
        case .abort:
            break
        case .report:
            guard recordsIndicating else { throw .cccdImproperlyConfigured }
            fallthrough
        default:
            guard !busy else { throw .procedureAlreadyInProgress }
        }
        if case .delete(let sequences) = request.action { records.removeAll { sequences.contains($0.sequence) } }
        return request
    }

    /// A record's 0x2B36 segments: sequence number, UUID 0x2B34 and the value, with the E2E-CRC when the Feature
    /// announces it, cut at the segment size; the rolling counter carries on from the previous segment.
    mutating func segments(of record: RecordSpec) -> [[UInt8]] {
        let value = feature.contains(.e2eCRC) ? RecordCRC.appended(to: record.value.bytes) : record.value.bytes
        let segments = BloodPressureRecordSegment.encodeSegments(
            sequenceNumber: record.sequence, recordedCharacteristicUUID: HealthCharacteristic.enhancedBloodPressureMeasurement.rawValue,
            recordedValue: value, maximumSegmentLength: segmentSize, firstCounter: segmentCounter)
        segmentCounter = UInt8((Int(segmentCounter) + segments.count) & 0x3F)
        return segments
    }

    /// Everything a write brings when the procedure runs to its end at once: the segments of each record it reports,
    /// in order, then the response; or the ATT error that refuses it.
    public mutating func indications(
        for value: [UInt8], controlPointIndicating: Bool, recordsIndicating: Bool
    ) throws(ATTError) -> (segments: [[UInt8]], response: [UInt8]) {
        let request = try accept(value, controlPointIndicating: controlPointIndicating, recordsIndicating: recordsIndicating, busy: false)
        guard case .report(let reported) = request.action else { return ([], request.response) }
        return (reported.flatMap { segments(of: $0) }, request.response)
    }
}
