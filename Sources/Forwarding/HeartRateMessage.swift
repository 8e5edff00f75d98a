import ReadingColumns

/// The JSON a heart-rate sample is published as, on its sensor's state topic (docs/home-assistant.md, "Heart rate"):
/// every key always present — `null` when the sensor sent no value —, keys sorted, so that a sample sent again is
/// the same bytes.
enum HeartRateMessage {
    static func payload(_ sample: HeartRateRecord) -> [UInt8] {
        let text = JSONText.object([
            "bpm": JSONText.number(sample.beatsPerMinute), "contact": JSONText.string(sample.sensorContact),
            "energy_expended": sample.energyExpended.map { String($0) } ?? "null",
            "measured_at": JSONText.string(ReadingMessage.timestamp(sample.time)), "person": JSONText.string(sample.person),
            "rr_intervals": "[" + sample.rrIntervals.map { String($0) }.joined(separator: ",") + "]",
            "sync_identifier": JSONText.string(sample.syncIdentifier),
        ])
        return Array(text.utf8)
    }
}
