import DBus

/// A page of readings as columns (docs/dbus-api.md, "Columns"), the form of `ReadingColumns` and `ChangeColumns`:
/// one array per field instead of one dictionary per reading. Pressures, times and integers travel as `ad` and `ax`
/// blocks that libdbus copies whole (``DBusValue/doubles(_:)``), texts as `as` appended from the strings themselves
/// (``DBusValue/strings(_:)``), each device once in `devices`; a page of 10 000 readings marshals, crosses the bus and
/// decodes faster than 1 000 dictionaries.
///
/// Keys: `systolic`, `diastolic`, `meanArterialPressure`, `pulseRate`, `time` (`ad`; NaN where absent),
/// `syncVersion` (`ax`), `userID`, `status` (`ax`, −1 where absent), `device` (`ax`, an index into `devices`),
/// `deviceTime`, `person`, `syncIdentifier`, `cursor` (`as`, `""` where absent), `devices` (`aa{ss}`), `unit` (`s`);
/// the corrections of readings (docs/dbus-api.md, "Correcting readings"): `enteredByHand` (`ab`), `arm`, `position`, `note`,
/// `exclusionReason` (`as`, `""` where absent) — absent from the pages of a cuffd before them, read as none.
public enum ReadingColumns {
    /// The most readings one page carries: about 200 bytes each on the wire, 2 MB a page, well under dbus-daemon's
    /// message limit (32 MiB on the system bus).
    public static let maximumRows = 10_000

    public static func properties(_ records: [ReadingRecord]) -> DBusProperties {
        let (devices, deviceColumn) = deviceTable(records.map(\.device))
        func doubles(_ field: (ReadingRecord) -> Double?) -> DBusVariant { DBusVariant(.doubles(records.map { field($0) ?? .nan })) }
        func integers(_ field: (ReadingRecord) -> Int64?) -> DBusVariant { DBusVariant(.int64s(records.map { field($0) ?? -1 })) }
        func strings(_ field: (ReadingRecord) -> String?) -> DBusVariant {
            DBusVariant(.strings(records.map { field($0) ?? "" }))
        }
        return [
            "systolic": doubles(\.systolic), "diastolic": doubles(\.diastolic),
            "meanArterialPressure": doubles(\.meanArterialPressure), "pulseRate": doubles(\.pulseRate), "time": doubles(\.time),
            "syncVersion": integers(\.syncVersion), "userID": integers { $0.userID.map(Int64.init) },
            "status": integers { $0.status.map(Int64.init) }, "device": DBusVariant(.int64s(deviceColumn)),
            "deviceTime": strings(\.deviceTime), "person": strings(\.person), "syncIdentifier": strings(\.syncIdentifier),
            "cursor": strings(\.cursor), "devices": DBusVariant(devices), "unit": DBusVariant(ReadingRecord.unit),
            "enteredByHand": DBusVariant(.array(.boolean, records.map { .boolean($0.enteredByHand) })),
            "arm": strings(\.arm), "position": strings(\.position), "note": strings(\.note), "exclusionReason": strings(\.exclusionReason),
        ]
    }

    /// The readings of a page, checked: every column of the same length, known devices, values in range.
    public static func records(_ properties: DBusProperties) throws(ReadingColumnsError) -> [ReadingRecord] {
        let systolic = try doubles(properties, "systolic"), count = systolic.count
        let diastolic = try doubles(properties, "diastolic", count), mean = try doubles(properties, "meanArterialPressure", count)
        let pulse = try doubles(properties, "pulseRate", count), time = try doubles(properties, "time", count)
        let syncVersion = try integers(properties, "syncVersion", count), userID = try integers(properties, "userID", count)
        let status = try integers(properties, "status", count), device = try integers(properties, "device", count)
        let deviceTime = try strings(properties, "deviceTime", count), person = try strings(properties, "person", count)
        let syncIdentifier = try strings(properties, "syncIdentifier", count), cursor = try strings(properties, "cursor", count)
        let byHand = try properties["enteredByHand"] == nil ? Array(repeating: false, count: count) : booleans(properties, "enteredByHand", count)
        func optionalStrings(_ key: String) throws(ReadingColumnsError) -> [String] {
            properties[key] == nil ? Array(repeating: "", count: count) : try strings(properties, key, count)
        }
        let arm = try optionalStrings("arm"), position = try optionalStrings("position"), note = try optionalStrings("note")
        let exclusion = try optionalStrings("exclusionReason")
        let devices = try Self.devices(properties)
        var records: [ReadingRecord] = []
        records.reserveCapacity(count)
        for row in 0 ..< count {
            guard let deviceIndex = Int(exactly: device[row]), devices.indices.contains(deviceIndex) else {
                throw .malformed("reading \(row) names device \(device[row]) of \(devices.count)")
            }
            guard userID[row] == -1 || UInt8(exactly: userID[row]) != nil, status[row] == -1 || UInt16(exactly: status[row]) != nil else {
                throw .malformed("reading \(row) has a User ID or status out of range")
            }
            var record = ReadingRecord(
                systolic: systolic[row], diastolic: diastolic[row], meanArterialPressure: present(mean[row]),
                pulseRate: present(pulse[row]), time: time[row], deviceTime: present(deviceTime[row]),
                device: devices[deviceIndex], userID: UInt8(exactly: userID[row]), person: present(person[row]),
                status: UInt16(exactly: status[row]), syncIdentifier: syncIdentifier[row], syncVersion: syncVersion[row],
                cursor: cursor[row])
            (record.enteredByHand, record.arm, record.position) = (byHand[row], present(arm[row]), present(position[row]))
            (record.note, record.exclusionReason) = (present(note[row]), present(exclusion[row]))
            records.append(record)
        }
        return records
    }

    /// The distinct devices of a page, in order of first appearance, and each row's index among them: a page's
    /// devices travel once (`devices`), its rows point into them (`device`). A row with the device of the row before
    /// it — most rows: a backlog is one cuff's, and a page's rows decoded by ``records(_:)`` share one dictionary per
    /// device, which compares equal to itself without reading its entries — is not hashed again.
    public static func deviceTable(_ rows: [[String: String]]) -> (devices: [[String: String]], column: [Int64]) {
        var devices: [[String: String]] = []
        var deviceIndex: [[String: String]: Int64] = [:]
        var column: [Int64] = []
        column.reserveCapacity(rows.count)
        var previous: (device: [String: String], index: Int64)?
        for device in rows {
            if let previous, previous.device == device {
                column.append(previous.index)
                continue
            }
            let index: Int64
            if let known = deviceIndex[device] {
                index = known
            } else {
                index = Int64(devices.count)
                devices.append(device)
                deviceIndex[device] = index
            }
            column.append(index)
            previous = (device, index)
        }
        return (devices, column)
    }

    /// The `devices` column, checked to be `aa{ss}`.
    static func devices(_ properties: DBusProperties) throws(ReadingColumnsError) -> [[String: String]] {
        do {
            return try properties.property("devices", as: [[String: String]].self) ?? []
        } catch {
            throw .malformed("devices: \(error)")
        }
    }

    static func present(_ value: Double) -> Double? { value.isNaN ? nil : value }
    static func present(_ value: String) -> String? { value.isEmpty ? nil : value }

    private static func column(_ properties: DBusProperties, _ key: String) throws(ReadingColumnsError) -> DBusValue {
        guard let value = properties[key]?.value else { throw .malformed("no \(key) column") }
        return value
    }

    static func doubles(_ properties: DBusProperties, _ key: String, _ count: Int? = nil) throws(ReadingColumnsError) -> [Double] {
        guard case .doubles(let values) = try column(properties, key) else { throw .malformed("\(key) is not ad") }
        return try counted(values, key, count)
    }

    static func integers(_ properties: DBusProperties, _ key: String, _ count: Int? = nil) throws(ReadingColumnsError) -> [Int64] {
        guard case .int64s(let values) = try column(properties, key) else { throw .malformed("\(key) is not ax") }
        return try counted(values, key, count)
    }

    static func strings(_ properties: DBusProperties, _ key: String, _ count: Int) throws(ReadingColumnsError) -> [String] {
        // A page made in this process, not read from the bus, holds its text columns as they are written.
        if case .strings(let texts) = try column(properties, key) { return try counted(texts, key, count) }
        return try elements(properties, key, .string, "as", count) { if case .string(let text) = $0 { text } else { nil } }
    }

    private static func booleans(_ properties: DBusProperties, _ key: String, _ count: Int) throws(ReadingColumnsError) -> [Bool] {
        try elements(properties, key, .boolean, "ab", count) { if case .boolean(let flag) = $0 { flag } else { nil } }
    }

    /// The column `key`, an array of `type` (`signature`), each element taken by `element`.
    private static func elements<T>(
        _ properties: DBusProperties, _ key: String, _ type: DBusType, _ signature: String, _ count: Int, _ element: (DBusValue) -> T?
    ) throws(ReadingColumnsError) -> [T] {
        guard case .array(type, let items) = try column(properties, key) else { throw .malformed("\(key) is not \(signature)") }
        var values: [T] = []
        values.reserveCapacity(items.count)
        for item in items { if let value = element(item) { values.append(value) } }
        return try counted(values, key, count)
    }

    private static func counted<T>(_ values: [T], _ key: String, _ count: Int?) throws(ReadingColumnsError) -> [T] {
        guard count == nil || values.count == count else { throw .malformed("\(key) has \(values.count) rows, not \(count!)") }
        return values
    }
}

/// A page of columns that is not one cuffd sends.
public enum ReadingColumnsError: Error, Equatable, CustomStringConvertible {
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let what): "a page of reading columns with \(what)"
        }
    }
}
