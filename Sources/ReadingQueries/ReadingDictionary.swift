import DBus
import HealthStore
import ReadingColumns

/// A reading as the control API sends it (`a{sv}`, docs/dbus-api.md): the keys of `cuffctl readings --json`,
/// pressures in mmHg and pulse in beats per minute, `time` as unix seconds, absent keys for absent values,
/// and `cursor`, the reading's place for paging (``ReadingCursor``).
public enum ReadingDictionary {
    public static func make(_ reading: ReadingRecord) -> [String: DBusVariant] {
        var entries: [String: DBusVariant] = [
            "systolic": DBusVariant(reading.systolic), "diastolic": DBusVariant(reading.diastolic),
            "unit": DBusVariant(ReadingRecord.unit), "time": DBusVariant(reading.time),
            "syncIdentifier": DBusVariant(reading.syncIdentifier), "syncVersion": DBusVariant(reading.syncVersion),
            "cursor": DBusVariant(reading.cursor), "device": DBusVariant(reading.device),
        ]
        if let value = reading.meanArterialPressure { entries["meanArterialPressure"] = DBusVariant(value) }
        if let value = reading.pulseRate { entries["pulseRate"] = DBusVariant(value) }
        if let value = reading.deviceTime { entries["deviceTime"] = DBusVariant(value) }
        if let value = reading.userID { entries["userID"] = DBusVariant(value) }
        if let value = reading.person { entries["person"] = DBusVariant(value) }
        if let value = reading.status { entries["status"] = DBusVariant(value) }
        if reading.enteredByHand { entries["enteredByHand"] = DBusVariant(true) }
        if let value = reading.arm { entries["arm"] = DBusVariant(value) }
        if let value = reading.position { entries["position"] = DBusVariant(value) }
        if let value = reading.note { entries["note"] = DBusVariant(value) }
        if let value = reading.exclusionReason {
            entries["excluded"] = DBusVariant(true)
            entries["exclusionReason"] = DBusVariant(value)
        }
        return entries
    }

    /// A stored device as `a{ss}`: `address`, `name`, `manufacturer`, `model`, `serial`, `firmware`, each when known.
    public static func device(_ stored: HealthDevice?) -> [String: String] {
        var device: [String: String] = [:]
        device["address"] = stored?.localIdentifier
        device["name"] = stored?.name
        device["manufacturer"] = stored?.manufacturer
        device["model"] = stored?.model
        device["serial"] = stored?.serialNumber
        device["firmware"] = stored?.firmwareVersion
        return device
    }
}
