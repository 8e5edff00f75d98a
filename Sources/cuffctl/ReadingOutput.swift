import DBus
import Foundation
import ReadingColumns
import TerminalEscaping

/// A reading as cuffd sends it — a row of `ReadingColumns` (``ReadingRecord``), or a dictionary (`a{sv}`, docs/dbus-api.md:
/// `Start`'s reply, and the samples of `HeartRates`) —, printed for people or as the JSON object of `cuffctl readings
/// --json` (docs/cuffctl.md). Fields are asked for by their D-Bus key, whichever form the reading came in.
struct ReadingOutput {
    private enum Source {
        case record(ReadingRecord)
        case fields(DBusProperties)
    }

    private let source: Source

    init(_ record: ReadingRecord) { source = .record(record) }
    init(fields: DBusProperties) { source = .fields(fields) }

    /// The dictionary a reading or sample came in; empty for a row of columns.
    var fields: DBusProperties {
        if case .fields(let fields) = source { fields } else { [:] }
    }

    func double(_ key: String) -> Double? {
        switch source {
        case .fields(let fields): return try? fields.property(key, as: Double.self)
        case .record(let record):
            switch key {
            case "systolic": return record.systolic
            case "diastolic": return record.diastolic
            case "meanArterialPressure": return record.meanArterialPressure
            case "pulseRate": return record.pulseRate
            case "time": return record.time
            default: return nil
            }
        }
    }

    func string(_ key: String) -> String? {
        switch source {
        case .fields(let fields): return (try? fields.property(key, as: String.self)) ?? nil
        case .record(let record):
            switch key {
            case "unit": return record.unit
            case "deviceTime": return record.deviceTime
            case "person": return record.person
            case "syncIdentifier": return record.syncIdentifier
            case "cursor": return record.cursor
            case "arm": return record.arm
            case "position": return record.position
            case "note": return record.note
            case "exclusionReason": return record.exclusionReason
            default: return nil
            }
        }
    }

    var time: Date? { double("time").map(Date.init(timeIntervalSince1970:)) }

    /// Whether a person entered the reading by hand.
    var enteredByHand: Bool {
        switch source {
        case .fields(let fields): ((try? fields.property("enteredByHand", as: Bool.self)) ?? nil) ?? false
        case .record(let record): record.enteredByHand
        }
    }

    var device: [String: String] {
        switch source {
        case .fields(let fields): ((try? fields.property("device", as: [String: String].self)) ?? nil) ?? [:]
        case .record(let record): record.device
        }
    }

    var userID: UInt8? {
        switch source {
        case .fields(let fields): (try? fields.property("userID", as: UInt8.self)) ?? nil
        case .record(let record): record.userID
        }
    }

    var status: UInt16? {
        switch source {
        case .fields(let fields): (try? fields.property("status", as: UInt16.self)) ?? nil
        case .record(let record): record.status
        }
    }

    var json: JSONValue {
        func number(_ key: String) -> JSONValue { double(key).map { .number(Self.text($0)) } ?? .null }
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        let device = device
        return .object([
            ("systolic", number("systolic")), ("diastolic", number("diastolic")),
            ("meanArterialPressure", number("meanArterialPressure")), ("pulseRate", number("pulseRate")),
            ("unit", text(string("unit"))),
            ("time", text(time.map { $0.formatted(Date.ISO8601FormatStyle(timeZone: .current)) })),
            ("deviceTime", text(string("deviceTime"))),
            ("device", .object(ReadingRecord.deviceFields.map { ($0, text(device[$0])) })),
            ("userID", userID.map { .integer($0) } ?? .null), ("person", text(string("person"))),
            ("status", status.map { .integer($0) } ?? .null), ("syncIdentifier", text(string("syncIdentifier"))),
        ] + corrections)
    }

    /// The corrections of the reading where set (docs/cuffctl.md, "Correcting readings"): `enteredByHand`, `excluded`
    /// with its `exclusionReason`, `arm`, `position`, `note`.
    private var corrections: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        if enteredByHand { fields.append(("enteredByHand", .bool(true))) }
        if let reason = string("exclusionReason") { fields += [("excluded", .bool(true)), ("exclusionReason", .string(reason))] }
        for key in ["arm", "position", "note"] {
            if let value = string(key) { fields.append((key, .string(value))) }
        }
        return fields
    }

    /// `2026-11-23 07:15  118/76 mmHg  pulse 66/min  C4:F3:12:53:F2:C9 user 1 (alice)`: pressures and pulse as whole
    /// numbers (``whole(_:)``), the strings escaped for a terminal (``TerminalText``). ``json`` keeps the stored values.
    var line: String {
        let when = time.map(Self.localMinute) ?? "?"
        let unit = TerminalText.escaped(string("unit") ?? "mmHg")
        var parts = [when, "\(double("systolic").map(Self.whole) ?? "?")/\(double("diastolic").map(Self.whole) ?? "?") \(unit)"]
        if let pulse = double("pulseRate") { parts.append("pulse \(Self.whole(pulse))/min") }
        parts.append(TerminalText.escaped(device["address"] ?? ""))
        if let userID { parts.append("user \(userID)" + (string("person").map { " (\(TerminalText.escaped($0)))" } ?? "")) }
        if enteredByHand {
            parts.append("(entered by hand)")
        } else if string("deviceTime") == nil {
            parts.append("(cuff time unknown)")
        }
        let taken = [string("arm").map { $0.hasSuffix("wrist") ? $0 : "\($0) arm" }, string("position")].compactMap { $0 }
        if !taken.isEmpty { parts.append(TerminalText.escaped(taken.joined(separator: ", "))) }
        if let reason = string("exclusionReason") { parts.append("EXCLUDED: " + TerminalText.escaped(reason)) }
        if let note = string("note") { parts.append("note: " + TerminalText.escaped(note)) }
        return parts.joined(separator: "  ")
    }

    /// `2026-11-23 07:15` in the local zone, whatever the locale.
    static func localMinute(_ date: Date) -> String {
        let clock = WallClock(date, in: .current)
        return clock.date + " " + clock.minutes
    }

    /// A pressure or rate for people: rounded to a whole number, as a cuff's display shows it and as `report` prints it.
    /// A kPa cuff's reading is stored converted to mmHg (docs/health-store.md, "Model", units): 16.0 kPa is
    /// 120.00985213530501 mmHg, shown `120`.
    static func whole(_ value: Double) -> String { text(value.rounded()) }

    /// `118` for whole values, else the shortest decimal text.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
