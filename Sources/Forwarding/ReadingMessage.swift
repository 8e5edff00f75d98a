import Foundation
import GATTHealth

/// The JSON a reading is published as, on its user's state or history topic (docs/home-assistant.md, "The state
/// message"). Every key is always present — `null` when the cuff sent no value — so that a Home Assistant
/// `value_template` such as `{{ value_json.mean }}` renders `None`, which the MQTT sensor takes as unknown, rather than
/// failing on a missing key.
enum ReadingMessage {
    static func payload(_ reading: ForwardedReading) -> [UInt8] {
        let status = BloodPressureMeasurementStatus(rawValue: reading.status ?? 0)
        let range: String
        switch status.pulseRateRange {
        case .withinRange: range = "within"
        case .exceedsUpperLimit: range = "above"
        case .belowLowerLimit: range = "below"
        case .reserved: range = "reserved"
        }
        let fields: [String: Any] = [
            "systolic": reading.systolic, "diastolic": reading.diastolic,
            "mean": reading.meanArterialPressure ?? NSNull(), "pulse": reading.pulseRate ?? NSNull(),
            "unit": reading.unit, "measured_at": timestamp(reading.time), "device_time": reading.deviceTime ?? NSNull(),
            "user_id": reading.userID.map { Int($0) } ?? NSNull(), "person": reading.person ?? NSNull(),
            "sync_identifier": reading.syncIdentifier, "sync_version": reading.syncVersion,
            // Measurement Status, GATT Specification Supplement §3.31.2.5; all false when the cuff sent none.
            "status": [
                "body_movement": status.bodyMovement, "cuff_fit_loose": status.cuffTooLoose, "irregular_pulse": status.irregularPulse,
                "pulse_rate_range": range, "improper_position": status.improperPosition,
            ],
        ]
        // Sorted keys: the same reading is the same bytes, so a duplicate delivery is recognisable as one.
        return Array((try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data())
    }

    /// ISO 8601 with the gateway's UTC offset, as Home Assistant's timestamp sensor reads it: `2026-11-25T07:02:00+01:00`.
    static func timestamp(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = .current
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }
}
