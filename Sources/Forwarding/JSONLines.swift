import ReadingColumns

/// A page as the HTTP sink's `Format=jsonl` body (docs/forwarding.md, "The HTTP sink"): one JSON object per line
/// (`application/x-ndjson`), each carrying the gateway, the sync identifier and version — what a receiver upserts by —
/// and its `type`: `reading` and `heart_rate` with the message the MQTT sink publishes (``ReadingMessage``,
/// ``HeartRateMessage``) as `data` and the cuff or sensor as `device`; `deletion` for a reading or sample deleted or
/// replaced at that version or an older one. Keys sorted, so that a page sent again is the same bytes.
enum JSONLines {
    static func body(_ page: ChangePage, gateway: String) -> [UInt8] {
        var text = ""
        let gateway = JSONText.string(gateway)
        func line(data: [UInt8], device: [String: String], syncIdentifier: String, syncVersion: Int64, type: String) {
            text += JSONText.object([
                "data": String(decoding: data, as: UTF8.self), "device": Self.device(device), "gateway": gateway,
                "sync_identifier": JSONText.string(syncIdentifier), "sync_version": String(syncVersion), "type": JSONText.string(type),
            ]) + "\n"
        }
        for reading in page.readings {
            line(
                data: ReadingMessage.payload(reading), device: reading.device, syncIdentifier: reading.syncIdentifier, syncVersion: reading.syncVersion,
                type: "reading")
        }
        for sample in page.heartRates {
            line(
                data: HeartRateMessage.payload(sample), device: sample.device, syncIdentifier: sample.syncIdentifier, syncVersion: sample.syncVersion,
                type: "heart_rate")
        }
        let feed = JSONText.string(page.kind == .readings ? "readings" : "heart_rates")
        for (identifier, version) in page.deleted {
            text += JSONText.object([
                "feed": feed, "gateway": gateway, "sync_identifier": JSONText.string(identifier), "sync_version": String(version),
                "type": JSONText.string("deletion"),
            ]) + "\n"
        }
        return Array(text.utf8)
    }

    /// The device's known fields (``ReadingRecord/deviceFields``), keys sorted.
    private static func device(_ fields: [String: String]) -> String {
        "{" + fields.keys.sorted().map { JSONText.string($0) + ":" + JSONText.string(fields[$0]!) }.joined(separator: ",") + "}"
    }
}
