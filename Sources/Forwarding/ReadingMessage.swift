import GATTHealth
import Glibc
import ReadingColumns

/// The JSON a reading is published as, on its user's state or history topic (docs/home-assistant.md, "The state
/// message"). Every key is always present — `null` when the cuff sent no value — so that a Home Assistant
/// `value_template` such as `{{ value_json.mean }}` renders `None`, which the MQTT sensor takes as unknown, rather than
/// failing on a missing key.
enum ReadingMessage {
    static func payload(_ reading: ReadingRecord) -> [UInt8] {
        let status = BloodPressureMeasurementStatus(rawValue: reading.status ?? 0)
        let range: String
        switch status.pulseRateRange {
        case .withinRange: range = "within"
        case .exceedsUpperLimit: range = "above"
        case .belowLowerLimit: range = "below"
        case .reserved: range = "reserved"
        }
        // Measurement Status, GATT Specification Supplement §3.31.2.5; all false when the cuff sent none.
        let flags = JSONText.object([
            "body_movement": JSONText.boolean(status.bodyMovement), "cuff_fit_loose": JSONText.boolean(status.cuffTooLoose),
            "improper_position": JSONText.boolean(status.improperPosition), "irregular_pulse": JSONText.boolean(status.irregularPulse),
            "pulse_rate_range": JSONText.string(range),
        ])
        // Keys sorted: the same reading is the same bytes, so a duplicate delivery is recognisable as one.
        let text = JSONText.object([
            "arm": JSONText.string(reading.arm),
            "category": JSONText.string(BloodPressureCategory.esh2023Home(reading.systolic, reading.diastolic).rawValue),
            "device_time": JSONText.string(reading.deviceTime),
            "diastolic": JSONText.number(reading.diastolic), "entered_by_hand": JSONText.boolean(reading.enteredByHand),
            "excluded": JSONText.string(reading.exclusionReason), "mean": JSONText.number(reading.meanArterialPressure),
            "measured_at": JSONText.string(timestamp(reading.time)), "note": JSONText.string(reading.note),
            "person": JSONText.string(reading.person), "position": JSONText.string(reading.position),
            "pulse": JSONText.number(reading.pulseRate), "status": flags,
            "sync_identifier": JSONText.string(reading.syncIdentifier), "sync_version": String(reading.syncVersion),
            "systolic": JSONText.number(reading.systolic), "unit": JSONText.string(reading.unit),
            "user_id": reading.userID.map { String($0) } ?? "null",
        ])
        return Array(text.utf8)
    }

    /// ISO 8601 with the gateway's UTC offset, as Home Assistant's timestamp sensor reads it: `2026-11-25T07:02:00+01:00`.
    /// strftime(3) with the local time zone (localtime_r), rather than a formatter object per reading.
    static func timestamp(_ seconds: Double) -> String {
        var time = time_t(seconds.rounded(.down)), parts = tm()
        localtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        var text = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        text.insert(":", at: text.index(text.endIndex, offsetBy: -2))  // %z is +0100; ISO 8601's extended form is +01:00
        return text
    }
}
