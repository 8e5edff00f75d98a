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

    /// A reading excluded on request is left out: the schemas have no place to mark it, and a consumer would average it.
    mutating func append(_ reading: ReadingOutput, to output: inout [UInt8]) {
        guard let time = reading.time, let syncIdentifier = reading.string("syncIdentifier"), reading.string("exclusionReason") == nil else { return }
        let timeFrame = ("effective_time_frame", JSONValue.object([("date_time", .string(ExportTime.local(time, in: zone)))]))
        if let systolic = reading.double("systolic"), let diastolic = reading.double("diastolic") {
            var body = [("systolic_blood_pressure", Self.value(systolic, "mmHg")), ("diastolic_blood_pressure", Self.value(diastolic, "mmHg")), timeFrame]
            if let posture = reading.string("position").flatMap({ Self.bodyPostures[$0] }) { body.append(("body_posture", .string(posture))) }
            if let location = reading.string("arm").flatMap({ Self.measurementLocations[$0] }) { body.append(("measurement_location", .string(location))) }
            append(reading, schema: ("blood-pressure", "4.0"), syncIdentifier: syncIdentifier, to: &output, body: body)
        }
        if let pulse = reading.double("pulseRate") {
            append(reading, schema: ("heart-rate", "2.0"), syncIdentifier: syncIdentifier, to: &output, body: [("heart_rate", Self.value(pulse, "beats/min")), timeFrame])
        }
    }

    /// A heart-rate sensor's sample as an `omh:heart-rate:2.0` data point; a value sent without skin contact is
    /// left out (the schema has no way to mark it).
    mutating func appendHeartRate(_ heartRate: HeartRateOutput, to output: inout [UInt8]) {
        let sample = heartRate.sample
        guard !heartRate.lacksContact, let time = sample.time, let syncIdentifier = sample.string("syncIdentifier"),
              let rate = sample.double("heartRate") else { return }
        let timeFrame = ("effective_time_frame", JSONValue.object([("date_time", .string(ExportTime.local(time, in: zone)))]))
        append(sample, schema: ("heart-rate", "2.0"), syncIdentifier: syncIdentifier, to: &output, body: [("heart_rate", Self.value(rate, "beats/min")), timeFrame])
    }

    /// Appends one data point: `,` before it in an array, a line end after it in NDJSON.
    private mutating func append(
        _ reading: ReadingOutput, schema: (name: String, version: String), syncIdentifier: String, to output: inout [UInt8], body: [(String, JSONValue)]
    ) {
        let device = reading.device
        let source = [device["manufacturer"], device["model"]].compactMap { $0 }.joined(separator: " ")
        let provenance: [(String, JSONValue)] = [
            ("source_name", .string(source.isEmpty ? "cuffd" : source + " via cuffd")), ("source_data_point_id", .string(syncIdentifier)),
            ("modality", .string(reading.enteredByHand ? "self-reported" : "sensed")),
        ]
        var header: [(String, JSONValue)] = [
            ("id", .string(NameBasedUUID.lowercased(NameBasedUUID.make("omh:\(schema.name):\(schema.version):" + syncIdentifier)))),
            ("creation_date_time", .string(ExportTime.utc(created))),
            ("schema_id", .object([("namespace", .string("omh")), ("name", .string(schema.name)), ("version", .string(schema.version))])),
            ("acquisition_provenance", .object(provenance)),
        ]
        if let person = reading.string("person") { header.append(("user_id", .string(person))) }
        points += 1
        if !ndjson && points > 1 { output.append(UInt8(ascii: ",")) }
        JSONValue.object([("header", .object(header)), ("body", .object(body))]).render(into: &output)
        if ndjson { output.append(UInt8(ascii: "\n")) }
    }

    /// cuffd's positions as `body_posture` (openmhealth/schemas `schema/omh/body-posture-1.0.json`, which
    /// `blood-pressure-4.0.json` takes through IEEE 1752.1's `body-posture-1.0`).
    static let bodyPostures = ["sitting": "sitting", "standing": "standing", "lying": "lying down", "reclining": "semi-recumbent"]
    /// cuffd's arms as `measurement_location` (openmhealth/schemas `schema/omh/body-location-1.1.json`).
    static let measurementLocations = ["left": "left upper arm", "right": "right upper arm", "left wrist": "left wrist", "right wrist": "right wrist"]

    private static func value(_ value: Double, _ unit: String) -> JSONValue {
        .object([("value", .number(ReadingOutput.text(value))), ("unit", .string(unit))])
    }
}
