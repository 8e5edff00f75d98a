import GATTHealth

/// One download of a BPS 1.1 cuff's stored records (docs/reference/GATT-HEALTH.md §7–§8): the RACP request that asks
/// for what is newer than the last record stored, then 0x2B36 segments reassembled into records, until
/// the cuff's RACP Response Code ends it. Pure state: the Gateway writes the request and feeds the
/// indications in.
struct RecordDownload {
    /// What an indication meant.
    enum Step: Equatable {
        /// A complete record to store.
        case record(BloodPressureRecordAssembler.Record)
        /// A segment of a record not complete yet.
        case segment
        /// The cuff's answer ended the download: success, or "no records found" (an empty success).
        case finished(recordCount: Int)
        /// The cuff refused the request with this RACP response code.
        case refused(RecordAccessControlPoint.ResponseCodeValue?)
        /// Not part of this download (another op code's response).
        case ignored
    }

    /// The request to write to 0x2A52.
    let request: RecordAccessControlPoint
    private var assembler: BloodPressureRecordAssembler
    private(set) var recordCount = 0

    /// Asks for every record after `lastSequenceNumber` (operator ≥ with filter type Sequence Number), or
    /// all records when nothing was stored yet or the counter is at its end.
    init(feature: BloodPressureFeature, after lastSequenceNumber: UInt16?) {
        if let last = lastSequenceNumber, last < .max {
            request = .reportRecords(fromSequenceNumber: last + 1)
        } else {
            request = RecordAccessControlPoint(opCode: .reportStoredRecords, operator: .allRecords)
        }
        assembler = BloodPressureRecordAssembler(feature: feature)
    }

    /// A 0x2B36 Blood Pressure Record indication.
    mutating func segment(_ bytes: [UInt8]) throws(GATTDecodingError) -> Step {
        guard let record = try assembler.append(bytes) else { return .segment }
        recordCount += 1
        return .record(record)
    }

    /// A 0x2A52 indication: the Response Code to our request ends the download.
    func response(_ bytes: [UInt8]) throws(GATTDecodingError) -> Step {
        let response = try RecordAccessControlPoint(decoding: bytes)
        guard response.opCode == .responseCode, case let .response(request, _) = response.operand,
              request == RecordAccessControlPoint.OpCode.reportStoredRecords.rawValue
        else { return .ignored }
        switch response.responseCodeValue {
        case .success?: return .finished(recordCount: recordCount)
        case .noRecordsFound?: return .finished(recordCount: 0)
        case let other: return .refused(other)
        }
    }
}
