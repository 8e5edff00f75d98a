import Foundation
import GATTHealth

/// `cuffctl export --format csv` (docs/export.md, "CSV"): RFC 4180 — UTF-8, CRLF line ends, a header row,
/// a field quoted when it holds a comma, a quote, CR or LF — with numbers unquoted and unformatted, and a text
/// field that a spreadsheet would take for a formula prefixed with an apostrophe.
struct CSVExport: ExportFormatter {
    /// What the rows are: one kind per file, since the columns differ.
    enum Content {
        case readings, heartRate
    }

    /// The zone of the first column (the second is UTC).
    var zone: TimeZone = .current
    var content = Content.readings

    static let columns = [
        "local_time", "utc_time", "systolic", "diastolic", "mean_arterial_pressure", "pulse_rate", "unit", "person", "user_id",
        "device_address", "manufacturer", "model", "serial", "body_movement", "cuff_too_loose", "irregular_pulse",
        "pulse_rate_range", "improper_position", "sync_identifier", "entered_by_hand", "excluded", "exclusion_reason", "arm", "position",
        "note",
    ]

    /// The columns of heart-rate sensors' samples: RR intervals in seconds, space-separated, oldest first.
    static let heartRateColumns = [
        "local_time", "utc_time", "heart_rate", "sensor_contact", "energy_expended_kj", "rr_intervals_s", "person",
        "device_address", "manufacturer", "model", "serial", "sync_identifier",
    ]

    var opening: String {
        var header: [UInt8] = []
        Self.append(row: (content == .readings ? Self.columns : Self.heartRateColumns).map(Self.field), to: &header)
        return String(decoding: header, as: UTF8.self)
    }
    var closing: String { "" }

    func append(_ reading: ReadingOutput, to output: inout [UInt8]) {
        func number(_ key: String) -> String { reading.double(key).map(ReadingOutput.text) ?? "" }
        func text(_ value: String?) -> String { value.map { Self.field(Self.defused($0)) } ?? "" }
        func flag(_ bit: Bool) -> String { bit ? "1" : "0" }
        let device = reading.device
        let status = reading.status.map(BloodPressureMeasurementStatus.init(rawValue:))
        let time = reading.time
        Self.append(row: [
            time.map { ExportTime.local($0, in: zone) } ?? "", time.map(ExportTime.utc) ?? "",
            number("systolic"), number("diastolic"), number("meanArterialPressure"), number("pulseRate"),
            text(reading.string("unit")), text(reading.string("person")), reading.userID.map { String($0) } ?? "",
            text(device["address"]), text(device["manufacturer"]), text(device["model"]), text(device["serial"]),
            status.map { flag($0.bodyMovement) } ?? "", status.map { flag($0.cuffTooLoose) } ?? "",
            status.map { flag($0.irregularPulse) } ?? "", status.map { "\($0.pulseRateRange)" } ?? "",
            status.map { flag($0.improperPosition) } ?? "", text(reading.string("syncIdentifier")),
            flag(reading.enteredByHand), flag(reading.string("exclusionReason") != nil), text(reading.string("exclusionReason")),
            text(reading.string("arm")), text(reading.string("position")), text(reading.string("note")),
        ], to: &output)
    }

    func appendHeartRate(_ heartRate: HeartRateOutput, to output: inout [UInt8]) {
        let sample = heartRate.sample
        func text(_ value: String?) -> String { value.map { Self.field(Self.defused($0)) } ?? "" }
        let device = sample.device
        let time = sample.time
        Self.append(row: [
            time.map { ExportTime.local($0, in: zone) } ?? "", time.map(ExportTime.utc) ?? "",
            sample.double("heartRate").map(ReadingOutput.text) ?? "", heartRate.contact,
            heartRate.energyExpended.map { String($0) } ?? "", heartRate.rrSeconds.joined(separator: " "),
            text(sample.string("person")), text(device["address"]), text(device["manufacturer"]), text(device["model"]),
            text(device["serial"]), text(sample.string("syncIdentifier")),
        ], to: &output)
    }

    /// One record: the fields comma-separated, ended by CRLF.
    private static func append(row fields: [String], to output: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output += field.utf8
        }
        output += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
    }

    /// The field as RFC 4180 writes it: in quotes, inner quotes doubled, when it holds `,` `"` CR or LF (looked for
    /// byte by byte: each is ASCII, never part of a multi-byte UTF-8 sequence).
    static func field(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Text that a spreadsheet would run as a formula — starting with `=`, `+`, `-`, `@`, a tab or CR (OWASP,
    /// "CSV Injection") — behind an apostrophe, which spreadsheets show as text.
    static func defused(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return text }
        return "'" + text
    }
}
