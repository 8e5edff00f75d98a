import DBus
import ReadingColumns

/// A heart-rate sample as the control API sends it (`a{sv}`, docs/dbus-api.md, `HeartRates`): `heartRate` in
/// beats per minute, `time` as unix seconds, `sensorContact`, `energyExpended` (kJ) and `rrIntervals` (1/1024 s)
/// when sent, the device and person as `Readings` gives them, and `cursor` for paging (``ReadingCursor``).
public enum HeartRateDictionary {
    public static func make(_ stored: StoredHeartRate) -> [String: DBusVariant] {
        let sample = stored.record
        var entries: [String: DBusVariant] = [
            "heartRate": DBusVariant(sample.beatsPerMinute), "time": DBusVariant(stored.time.timeIntervalSince1970),
            "sensorContact": DBusVariant(sample.sensorContact), "syncIdentifier": DBusVariant(sample.syncIdentifier),
            "cursor": DBusVariant(ReadingCursor.text(stored.position)), "device": DBusVariant(sample.device),
        ]
        if let value = sample.energyExpended { entries["energyExpended"] = DBusVariant(value) }
        if !sample.rrIntervals.isEmpty { entries["rrIntervals"] = DBusVariant(sample.rrIntervals) }
        if let value = sample.person { entries["person"] = DBusVariant(value) }
        return entries
    }
}
