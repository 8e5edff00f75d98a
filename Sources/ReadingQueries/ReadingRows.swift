import GATTHealth
import Gateway
import HealthStore
import ReadingColumns

/// Readings read flat from the store (``CorrelationColumns``): what `Readings`, `ReadingColumns`, `Changes` and
/// `ChangeColumns` answer, without building a ``Correlation`` per reading: pressures in mmHg and pulse per minute
/// (the canonical units of their types), the cuff's wall clock from `DeviceTimestamp`, kept as a date read in UTC
/// (`DateTime.dateReadAsUTC`).
public enum ReadingRows {
    public static let columns = CorrelationColumns(
        values: [.bloodPressureSystolic, .bloodPressureDiastolic, .bloodPressureMean, .heartRate],
        metadata: [
            .deviceTimestamp, .deviceUserID, .personIdentifier, .measurementStatus, .wasUserEntered, .measurementLocation, .bodyPosition,
            .note, .exclusionReason,
        ])

    /// The readings of `rows`, in their order; a row without a systolic and a diastolic value the caller may read
    /// is left out.
    public static func records(_ rows: [CorrelationRow]) -> [ReadingRecord] {
        var records: [ReadingRecord] = []
        records.reserveCapacity(rows.count)
        // A page's readings mostly come from one cuff: its a{ss} made once.
        var lastDevice: (stored: HealthDevice?, fields: [String: String])?
        // `row.values` and `row.metadata` are in the order of ``columns``.
        for row in rows {
            guard let systolic = row.values[0], let diastolic = row.values[1] else { continue }
            let device: [String: String]
            if let last = lastDevice, last.stored == row.device {
                device = last.fields
            } else {
                device = ReadingDictionary.device(row.device)
                lastDevice = (row.device, device)
            }
            var deviceTime: String?
            if case .date(let timestamp)? = row.metadata[0] { deviceTime = DateTime(utc: timestamp).isoString }
            var userID: UInt8?
            if case .integer(let value)? = row.metadata[1] { userID = UInt8(exactly: value) }
            var person: String?
            if case .string(let value)? = row.metadata[2] { person = value }
            var status: UInt16?
            if case .integer(let value)? = row.metadata[3] { status = UInt16(exactly: value) }
            var record = ReadingRecord(
                systolic: systolic, diastolic: diastolic, meanArterialPressure: row.values[2], pulseRate: row.values[3],
                time: row.startDate.timeIntervalSince1970, deviceTime: deviceTime, device: device, userID: userID, person: person,
                status: status, syncIdentifier: row.syncIdentifier ?? row.uuid.uuidString, syncVersion: row.syncVersion ?? 0,
                cursor: ReadingCursor.text(row.position))
            if case .bool(true)? = row.metadata[4] { record.enteredByHand = true }
            if case .integer(let code)? = row.metadata[5] { record.arm = MeasurementLocation(rawValue: code).flatMap(ReadingAnnotation.name(of:)) }
            if case .integer(let code)? = row.metadata[6] { record.position = BodyPosition(rawValue: code).flatMap(ReadingAnnotation.name(of:)) }
            if case .string(let value)? = row.metadata[7] { record.note = value }
            if case .string(let value)? = row.metadata[8] { record.exclusionReason = value }
            records.append(record)
        }
        return records
    }
}
