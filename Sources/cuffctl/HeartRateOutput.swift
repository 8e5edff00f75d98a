import DBus
import Foundation
import ReadingColumns
import TerminalEscaping

/// A heart-rate sample as cuffd sends it (`HeartRates`, docs/dbus-api.md), printed for people or as JSON.
struct HeartRateOutput {
    let sample: ReadingOutput

    init(_ sample: ReadingOutput) { self.sample = sample }

    var rrIntervals: [UInt16] { ((try? sample.fields.property("rrIntervals", as: [UInt16].self)) ?? nil) ?? [] }
    var energyExpended: UInt16? { (try? sample.fields.property("energyExpended", as: UInt16.self)) ?? nil }
    var contact: String { sample.string("sensorContact") ?? "notSupported" }
    /// The RR intervals in seconds to the millisecond (`0.977`), oldest first.
    var rrSeconds: [String] { rrIntervals.map { String(format: "%.3f", Double($0) / 1024) } }
    /// Whether the sensor said it had no skin contact.
    var lacksContact: Bool { contact == "notDetected" }

    /// `2026-11-23 07:15:03  72/min  C4:F3:12:53:F2:C9  RR 0.977 0.986 s  (no skin contact)`.
    var line: String {
        let clock = sample.time.map { WallClock($0, in: .current) }
        var parts = [clock.map { $0.date + " " + $0.seconds } ?? "?", "\(sample.double("heartRate").map(ReadingOutput.text) ?? "?")/min"]
        parts.append(TerminalText.escaped(sample.device["address"] ?? ""))
        if !rrIntervals.isEmpty { parts.append("RR " + rrSeconds.joined(separator: " ") + " s") }
        if let energyExpended { parts.append("\(energyExpended) kJ") }
        if let person = sample.string("person") { parts.append("(\(TerminalText.escaped(person)))") }
        if lacksContact { parts.append("(no skin contact)") }
        return parts.joined(separator: "  ")
    }

    var json: JSONValue {
        .object([
            ("heartRate", sample.double("heartRate").map { .number(ReadingOutput.text($0)) } ?? .null),
            ("time", sample.time.map { .string(ExportTime.local($0)) } ?? .null),
            ("sensorContact", .string(contact)),
            ("energyExpended", energyExpended.map { .integer($0) } ?? .null),
            ("rrIntervals", .array(rrIntervals.map { .integer($0) })),
            ("device", .object(ReadingRecord.deviceFields.map { ($0, sample.device[$0].map(JSONValue.string) ?? .null) })),
            ("person", sample.string("person").map(JSONValue.string) ?? .null),
            ("syncIdentifier", sample.string("syncIdentifier").map(JSONValue.string) ?? .null),
        ])
    }
}
