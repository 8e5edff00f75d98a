import BlueZ
import FoundationEssentials
import GATTHealth

/// Stored-record downloads from BPS 1.1 cuffs (docs/reference/GATT-HEALTH.md §7–§8): "report records greater than the
/// last sequence stored", reassembled from 0x2B36 segments, each committed before the next counts.
extension CuffGateway {
    /// Writes the RACP request once indications are on for the records and the responses (the cuff
    /// answers on both; a request without them fails with ATT error 0xFD).
    func downloadRecords(_ id: DeviceID) async {
        let racp = HealthCharacteristic.recordAccessControlPoint.uuid
        _ = await notifying(id)
        guard !Task.isCancelled else { return }
        let record = state.records[id.address]
        let download = RecordDownload(feature: BloodPressureFeature(rawValue: record?.feature ?? 0), after: record?.lastSequenceNumber)
        state.cuffs[id.address]?.download = download
        do {
            try await bluetooth.writeValue(download.request.encoded(), to: racp, of: id)
        } catch {
            state.cuffs[id.address]?.download = nil
            emit(.problem(id.address, "the stored-record request failed: \(error)"))
        }
    }

    func recordSegment(_ address: BluetoothAddress, _ bytes: [UInt8], _ receivedAt: Date) async {
        guard let cuff = state.cuffs[address], var download = cuff.download else { return }
        do {
            let step = try download.segment(bytes)
            state.cuffs[address]?.download = download
            guard case .record(let record) = step,
                  let characteristic = HealthCharacteristic(rawValue: record.recordedCharacteristicUUID)
            else { return }
            await publish(address, await cuff.session.handle(.storedRecord(
                sequenceNumber: record.sequenceNumber, characteristic, record.recordedValue, receivedAt: receivedAt)))
        } catch {
            await publish(address, [.malformedValue(.bloodPressureRecord, error, payload: bytes)])
        }
    }

    func recordAccessResponse(_ address: BluetoothAddress, _ bytes: [UInt8]) async {
        guard let download = state.cuffs[address]?.download else { return }
        switch try? download.response(bytes) {
        case .finished(let count)?:
            state.cuffs[address]?.download = nil
            emit(.recordsDownloaded(address, count: count))
        case .refused(let code)?:
            state.cuffs[address]?.download = nil
            emit(.problem(address, "the cuff refused the stored-record request (RACP response \(code.map { "\($0)" } ?? "unknown"))"))
        default:
            break
        }
    }
}
