import DBus

/// A page of heart-rate samples as columns (docs/dbus-api.md, "Heart-rate change feed"), the form of
/// `HeartRateChangeColumns`: one array per field, as ``ReadingColumns`` sends readings, so that a day of a 1 Hz
/// strap crosses the bus in a few `ad` and `ax` blocks rather than 86 400 dictionaries.
///
/// Keys: `heartRate`, `time` (`ad`), `sensorContact` (`ax`: the index of ``HeartRateRecord/contactNames``),
/// `energyExpended` (`ax`, −1 where absent), `rrIntervalCount` (`ax`, how many of `rrIntervals` are the row's),
/// `rrIntervals` (`ax`, every row's intervals one after the other), `syncVersion` (`ax`), `device` (`ax`, an index
/// into `devices`), `person`, `syncIdentifier` (`as`, `""` where absent), `devices` (`aa{ss}`).
public enum HeartRateColumns {
    public static func properties(_ records: [HeartRateRecord]) -> DBusProperties {
        let (devices, deviceColumn) = ReadingColumns.deviceTable(records.map(\.device))
        func integers(_ field: (HeartRateRecord) -> Int64?) -> DBusVariant { DBusVariant(.int64s(records.map { field($0) ?? -1 })) }
        func strings(_ field: (HeartRateRecord) -> String?) -> DBusVariant {
            DBusVariant(.strings(records.map { field($0) ?? "" }))
        }
        return [
            "heartRate": DBusVariant(.doubles(records.map(\.beatsPerMinute))), "time": DBusVariant(.doubles(records.map(\.time))),
            "sensorContact": integers { HeartRateRecord.contactNames.firstIndex(of: $0.sensorContact).map(Int64.init) ?? 0 },
            "energyExpended": integers { $0.energyExpended.map(Int64.init) },
            "rrIntervalCount": integers { Int64($0.rrIntervals.count) },
            "rrIntervals": DBusVariant(.int64s(records.flatMap { $0.rrIntervals.map(Int64.init) })),
            "syncVersion": integers(\.syncVersion), "device": DBusVariant(.int64s(deviceColumn)),
            "person": strings(\.person), "syncIdentifier": strings(\.syncIdentifier), "devices": DBusVariant(devices),
        ]
    }

    /// The samples of a page, checked: every column of the same length, known devices and contact codes, as many
    /// intervals as the counts say, each in range.
    public static func records(_ properties: DBusProperties) throws(ReadingColumnsError) -> [HeartRateRecord] {
        let heartRate = try ReadingColumns.doubles(properties, "heartRate"), count = heartRate.count
        let time = try ReadingColumns.doubles(properties, "time", count)
        let contact = try ReadingColumns.integers(properties, "sensorContact", count)
        let energy = try ReadingColumns.integers(properties, "energyExpended", count)
        let rrCount = try ReadingColumns.integers(properties, "rrIntervalCount", count)
        let rrIntervals = try ReadingColumns.integers(properties, "rrIntervals")
        let syncVersion = try ReadingColumns.integers(properties, "syncVersion", count)
        let device = try ReadingColumns.integers(properties, "device", count)
        let person = try ReadingColumns.strings(properties, "person", count)
        let syncIdentifier = try ReadingColumns.strings(properties, "syncIdentifier", count)
        let devices = try ReadingColumns.devices(properties)
        guard rrCount.allSatisfy({ $0 >= 0 }), rrCount.reduce(0, +) == rrIntervals.count else {
            throw .malformed("rrIntervalCount adding up to other than the \(rrIntervals.count) rrIntervals")
        }
        let intervals = rrIntervals.compactMap(UInt16.init(exactly:))
        guard intervals.count == rrIntervals.count else { throw .malformed("an RR interval out of range") }
        var records: [HeartRateRecord] = []
        records.reserveCapacity(count)
        var rrStart = 0
        for row in 0 ..< count {
            guard let deviceIndex = Int(exactly: device[row]), devices.indices.contains(deviceIndex) else {
                throw .malformed("sample \(row) names device \(device[row]) of \(devices.count)")
            }
            guard let contactIndex = Int(exactly: contact[row]), HeartRateRecord.contactNames.indices.contains(contactIndex),
                  energy[row] == -1 || UInt16(exactly: energy[row]) != nil
            else { throw .malformed("sample \(row) has a sensor contact or energy out of range") }
            let rrEnd = rrStart + Int(rrCount[row])
            records.append(HeartRateRecord(
                beatsPerMinute: heartRate[row], time: time[row], sensorContact: HeartRateRecord.contactNames[contactIndex],
                energyExpended: UInt16(exactly: energy[row]), rrIntervals: Array(intervals[rrStart ..< rrEnd]),
                device: devices[deviceIndex], person: ReadingColumns.present(person[row]), syncIdentifier: syncIdentifier[row],
                syncVersion: syncVersion[row]))
            rrStart = rrEnd
        }
        return records
    }
}
