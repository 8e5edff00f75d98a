import Foundation

/// `cuffctl export --format omh` (docs/export.md, "Open mHealth"): per reading an `omh:blood-pressure:4.0`
/// data point and, when it has a pulse, an `omh:heart-rate:2.0` one, each a `{header, body}` with a
/// `header-1.2`; as one JSON array, or one data point per line (`--ndjson`). A data point's id is the
/// version 5 UUID of its reading's sync identifier and schema, so exporting again gives the same ids.
struct OpenMHealthExport: ExportFormatter {
    let ndjson: Bool
    /// The header's `creation_date_time`: when the export made the data points.
    let created: Date
    var zone: TimeZone = .current
    private var points = 0

    init(ndjson: Bool, created: Date = Date(), zone: TimeZone = .current) {
        self.ndjson = ndjson
        self.created = created
        self.zone = zone
    }

    var opening: String { ndjson ? "" : "[" }
    var closing: String { ndjson ? "" : "]\n" }

    mutating func text(for reading: ReadingOutput) -> String {
        guard let time = reading.time, let syncIdentifier = reading.string("syncIdentifier") else { return "" }
        let timeFrame = ("effective_time_frame", JSONValue.object([("date_time", .string(ExportTime.local(time, in: zone)))]))
        var text = ""
        if let systolic = reading.double("systolic"), let diastolic = reading.double("diastolic") {
            text += point(reading, schema: ("blood-pressure", "4.0"), syncIdentifier: syncIdentifier, body: [
                ("systolic_blood_pressure", Self.value(systolic, "mmHg")), ("diastolic_blood_pressure", Self.value(diastolic, "mmHg")), timeFrame,
            ])
        }
        if let pulse = reading.double("pulseRate") {
            text += point(reading, schema: ("heart-rate", "2.0"), syncIdentifier: syncIdentifier, body: [("heart_rate", Self.value(pulse, "beats/min")), timeFrame])
        }
        return text
    }

    private mutating func point(_ reading: ReadingOutput, schema: (name: String, version: String), syncIdentifier: String, body: [(String, JSONValue)]) -> String {
        let device = reading.device
        let source = [device["manufacturer"], device["model"]].compactMap { $0 }.joined(separator: " ")
        let provenance: [(String, JSONValue)] = [
            ("source_name", .string(source.isEmpty ? "cuffd" : source + " via cuffd")), ("source_data_point_id", .string(syncIdentifier)),
            ("modality", .string("sensed")),
        ]
        var header: [(String, JSONValue)] = [
            ("id", .string(NameBasedUUID.make("omh:\(schema.name):\(schema.version):" + syncIdentifier).uuidString.lowercased())),
            ("creation_date_time", .string(ExportTime.utc(created))),
            ("schema_id", .object([("namespace", .string("omh")), ("name", .string(schema.name)), ("version", .string(schema.version))])),
            ("acquisition_provenance", .object(provenance)),
        ]
        if let person = reading.string("person") { header.append(("user_id", .string(person))) }
        let line = JSONValue.object([("header", .object(header)), ("body", .object(body))]).rendered
        points += 1
        return ndjson ? line + "\n" : (points == 1 ? "" : ",") + line
    }

    private static func value(_ value: Double, _ unit: String) -> JSONValue {
        .object([("value", .number(ReadingOutput.text(value))), ("unit", .string(unit))])
    }
}
