import GATTHealth

/// A BPS 1.1 cuff's stored-record procedures (docs/reference/GATT-HEALTH.md §7–§8): a write to RACP 0x2A52 is answered
/// at once, then the cuff indicates the selected records on 0x2B36, segment by segment, and ends with
/// its response on 0x2A52. Reports leave the records in memory; a delete removes them.
extension BluezEmulator {
    /// Between two indications bluetoothd confirms the first: about one connection interval.
    static let indicationInterval: Duration = .milliseconds(10)

    /// Checks a RACP write the way the cuff's ATT server does, then starts its procedure. The responses
    /// need indications on 0x2A52, a report also on 0x2B36 (else "CCCD Improperly Configured"); while a
    /// procedure runs only Abort is taken (else "Procedure Already in Progress").
    func requestRecordAccess(_ index: Int, _ value: [UInt8]) throws(ATTError) {
        guard cuffs[index].isNotifying(.assigned(.recordAccessControlPoint)) else { throw .cccdImproperlyConfigured }
        let request = RecordAccessRequest(value, records: cuffs[index].records)
        switch request.action {
        case .abort:
            cuffs[index].recordProcedure?.cancel()
        case .report:
            guard cuffs[index].isNotifying(.assigned(.bloodPressureRecord)) else { throw .cccdImproperlyConfigured }
            fallthrough
        default:
            guard cuffs[index].recordProcedure == nil else { throw .procedureAlreadyInProgress }
        }
        log("\(name(index)) 0x2A52 written: \(Hex.bytes(value))")
        if case .delete(let sequences) = request.action {
            cuffs[index].records.removeAll { sequences.contains($0.sequence) }
            log("\(name(index)) records deleted: \(sequences.sorted().map(String.init).joined(separator: ", "))")
        }
        cuffs[index].recordProcedure = spawn { await self.carryOut(request, cuff: index) }
    }

    /// Indicates the records a report selected, then the response. Canceled by Abort or a lost link.
    private func carryOut(_ request: RecordAccessRequest, cuff index: Int) async {
        if case .report(let records) = request.action {
            for record in records {
                let segments = segments(of: record, cuff: index)
                for (number, segment) in segments.enumerated() {
                    guard (try? await Task.sleep(for: Self.indicationInterval)) != nil else { return }
                    await send(index, .assigned(.bloodPressureRecord), segment,
                               kind: "indicated (record \(record.sequence), segment \(number + 1) of \(segments.count))")
                }
            }
        }
        guard (try? await Task.sleep(for: Self.indicationInterval)) != nil else { return }
        cuffs[index].recordProcedure = nil
        await send(index, .assigned(.recordAccessControlPoint), request.response, kind: "indicated (RACP response)")
    }

    /// A record's 0x2B36 segments: sequence number, UUID 0x2B34 and the value, with the E2E-CRC when the
    /// Feature announces it, cut at the scenario's segment size (else the ATT payload); the rolling
    /// counter carries on from the cuff's previous segment.
    private func segments(of record: RecordSpec, cuff index: Int) -> [[UInt8]] {
        let spec = cuffs[index].spec
        let feature = (try? BloodPressureFeature(decoding: spec.feature.bytes)) ?? []
        let value = feature.contains(.e2eCRC) ? RecordCRC.appended(to: record.value.bytes) : record.value.bytes
        let segments = BloodPressureRecordSegment.encodeSegments(
            sequenceNumber: record.sequence, recordedCharacteristicUUID: HealthCharacteristic.enhancedBloodPressureMeasurement.rawValue,
            recordedValue: value, maximumSegmentLength: spec.recordSegmentSize ?? GattLayout.attPayload,
            firstCounter: cuffs[index].segmentCounter)
        cuffs[index].segmentCounter = UInt8((Int(cuffs[index].segmentCounter) + segments.count) & 0x3F)
        return segments
    }
}
