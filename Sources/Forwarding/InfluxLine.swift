import ReadingColumns

/// A page as InfluxDB 1.x line protocol, the HTTP sink's `Format=influx` body for `/write` (docs/forwarding.md,
/// "InfluxDB"; docs/reference/influxdb-line-protocol.md has the rules quoted): `measurement,tags fields timestamp`,
/// one point per line, the timestamp in nanoseconds.
///
/// * `blood_pressure`, tags `gateway`, `device` (the cuff's address), `person`, `user_id`; fields `systolic`,
///   `diastolic`, `mean`, `pulse`, `status` (integer), `excluded` (the reason, `""` when the reading counts),
///   `sync_identifier`, `sync_version`.
/// * `heart_rate`, tags `gateway`, `device`, `person`; fields `bpm`, `contact`, `energy_expended`, `rr_intervals`
///   (1/1024 s, comma-separated), `sync_identifier`, `sync_version`.
/// * `deletion`, tags `gateway`, `feed` (`blood_pressure` or `heart_rate`), `sync_identifier`; field `sync_version`;
///   the time it was sent. `/write` cannot delete a point, and a deletion names only the sync identifier, not the
///   point's time and tags: a query leaves deleted readings out by these.
///
/// A number without `i` is a float to InfluxDB (`120` too), so the pressures and rates are floats whatever their value —
/// a field's type is fixed by its first write.
///
/// A point sent again with the same measurement, tags and time replaces the fields it carries: that is what makes a
/// resend harmless, and why every field a revision can change is always written (`excluded` as `""`). A tag absent (no
/// person) is left out, as the protocol has no empty tag value. A deletion of a reading the same page revises is left
/// out: the revision replaces that point.
enum InfluxLine {
    static func body(_ page: ChangePage, gateway: String, now: Double) -> [UInt8] {
        var text = ""
        text.reserveCapacity(page.count * 256)
        let gateway = escaped(gateway, also: ",=")
        for reading in page.readings {
            var fields = ["systolic=\(JSONText.number(reading.systolic))", "diastolic=\(JSONText.number(reading.diastolic))"]
            if let mean = reading.meanArterialPressure, mean.isFinite { fields.append("mean=\(JSONText.number(mean))") }
            if let pulse = reading.pulseRate, pulse.isFinite { fields.append("pulse=\(JSONText.number(pulse))") }
            if let status = reading.status { fields.append("status=\(status)i") }
            fields += [
                "excluded=\(string(reading.exclusionReason ?? ""))", "sync_identifier=\(string(reading.syncIdentifier))",
                "sync_version=\(reading.syncVersion)i",
            ]
            let tags = [
                ("device", reading.device["address"].map(tag)), ("gateway", gateway), ("person", reading.person.map(tag)),
                ("user_id", reading.userID.map { String($0) }),
            ]
            point("blood_pressure", tags, fields, time: reading.time, to: &text)
        }
        for sample in page.heartRates {
            var fields = ["bpm=\(JSONText.number(sample.beatsPerMinute))", "contact=\(string(sample.sensorContact))"]
            if let energy = sample.energyExpended { fields.append("energy_expended=\(energy)i") }
            fields += [
                "rr_intervals=\(string(sample.rrIntervals.map { String($0) }.joined(separator: ",")))",
                "sync_identifier=\(string(sample.syncIdentifier))", "sync_version=\(sample.syncVersion)i",
            ]
            let tags = [("device", sample.device["address"].map(tag)), ("gateway", gateway), ("person", sample.person.map(tag))]
            point("heart_rate", tags, fields, time: sample.time, to: &text)
        }
        let revised = Set(page.readings.map(\.syncIdentifier) + page.heartRates.map(\.syncIdentifier))
        let feed = page.kind == .readings ? "blood_pressure" : "heart_rate"
        for (identifier, version) in page.deleted where !revised.contains(identifier) {
            let tags: [(String, String?)] = [("feed", feed), ("gateway", gateway), ("sync_identifier", tag(identifier))]
            point("deletion", tags, ["sync_version=\(version)i"], time: now, to: &text)
        }
        return Array(text.utf8)
    }

    /// One line appended to `text`: the measurement and the tags' keys as written (none needs escaping), the tags in
    /// the order of their keys (what InfluxDB recommends for speed) and already escaped (``tag(_:)``), those without a
    /// value left out.
    private static func point(_ measurement: String, _ tags: [(String, String?)], _ fields: [String], time: Double, to text: inout String) {
        text += measurement
        for (key, value) in tags {
            guard let value, !value.isEmpty else { continue }
            text += "," + key + "=" + value
        }
        text += " "
        for (index, field) in fields.enumerated() {
            if index > 0 { text += "," }
            text += field
        }
        text += " " + String(nanoseconds(time)) + "\n"
    }

    /// A tag value, escaped.
    private static func tag(_ value: String) -> String { escaped(value, also: ",=") }

    /// Unix seconds as nanoseconds, through whole microseconds, so that a value with a fraction is the same number at
    /// each send (a Double near 1.7e9 s holds about 0.2 µs).
    static func nanoseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1_000_000).rounded()) * 1_000 }

    /// A measurement, tag key or tag value: spaces and `characters` escaped with a backslash. Line protocol has no
    /// escape for a line end, so one (or any control character) becomes a space, which a device's name must not
    /// smuggle in as a second point; a trailing backslash would escape the separator after it, so it is doubled.
    static func escaped(_ text: String, also characters: String) -> String {
        // Most names need nothing (a Bluetooth address, a gateway's name): printable ASCII without what is escaped.
        let special = characters.utf8
        if text.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\\") && !special.contains($0) }) { return text }
        var result = ""
        for character in text {
            if character.isNewline || character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                result += "\\ "
            } else if character == " " || characters.contains(character) {
                result += "\\" + String(character)
            } else {
                result.append(character)
            }
        }
        if result.hasSuffix("\\") { result += "\\" }
        return result
    }

    /// A string field value: double-quoted, `"` and `\` escaped; a line end or control character becomes a space.
    static func string(_ text: String) -> String {
        if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) { return "\"" + text + "\"" }
        var result = "\""
        for character in text {
            switch character {
            case "\"", "\\": result += "\\" + String(character)
            case _ where character.isNewline || character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }): result += " "
            default: result.append(character)
            }
        }
        return result + "\""
    }
}
