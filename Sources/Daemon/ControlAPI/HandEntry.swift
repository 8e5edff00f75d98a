import DBus
import Foundation
import Gateway
import HealthStore
import ReadingQueries

/// The reading of `AddReading` (docs/dbus-api.md, "Correcting readings"): `systolic`, `diastolic` (`d`, mmHg), and
/// optionally `pulseRate` (`d`, /min), `time` (`d`, unix seconds; now when absent), `person`, `arm`, `position`,
/// `note` (`s`). The values must be ones a cuff could have measured — the ranges cuffd applies to cuffs
/// (``PlausibleRange``) —, the time neither in the future nor before 1900, the person one the configuration names.
struct HandEntry {
    static let keys: Set<String> = ["systolic", "diastolic", "pulseRate", "time", "person", "arm", "position", "note"]
    /// 1900-01-01T00:00:00Z: no home cuff measured before.
    static let earliest = Date(timeIntervalSince1970: -2_208_988_800)

    let reading: BloodPressureReading

    init(_ dictionary: DBusProperties, people: Set<String>, now: Date) throws {
        for key in dictionary.keys where !Self.keys.contains(key) {
            throw ControlError.invalidArguments("unknown key \"\(key.prefix(80))\"; expected \(Self.keys.sorted().joined(separator: ", "))")
        }
        do {
            guard let systolic = try dictionary.property("systolic", as: Double.self), let diastolic = try dictionary.property("diastolic", as: Double.self)
            else { throw ControlError.invalidArguments("a reading needs systolic and diastolic") }
            let pulse = try dictionary.property("pulseRate", as: Double.self)
            for (range, value) in [(PlausibleRange.systolic, systolic), (.diastolic, diastolic)] + (pulse.map { [(PlausibleRange.pulseRate, $0)] } ?? []) {
                if let refusal = range.refusal(value) { throw ControlError.implausible("\(refusal), the range cuffd accepts from cuffs") }
            }
            guard diastolic < systolic else { throw ControlError.implausible("diastolic \(diastolic) mmHg not below systolic \(systolic) mmHg") }
            let time = try dictionary.property("time", as: Double.self).map(Date.init(timeIntervalSince1970:)) ?? now
            guard time.timeIntervalSince1970.isFinite, time <= now else {
                throw ControlError.implausible("the time \(time.timeIntervalSince1970) lies in the future: a reading entered by hand was measured already")
            }
            guard time >= Self.earliest else { throw ControlError.implausible("the time lies before 1900: no home cuff measured then") }
            let person = try dictionary.property("person", as: String.self)
            if let person { try CorrectionInput.check(person: person, in: people) }
            reading = BloodPressureReading(
                systolic: systolic, diastolic: diastolic, pulse: pulse, receivedAt: time, timeZoneIdentifier: TimeZone.current.identifier,
                device: nil, personIdentifier: person,
                bodyPosition: try dictionary.property("position", as: String.self).map(CorrectionInput.position),
                measurementLocation: try dictionary.property("arm", as: String.self).map(CorrectionInput.arm),
                wasUserEntered: true, note: try dictionary.property("note", as: String.self).map { try CorrectionInput.checked($0, "a note") },
                syncIdentifier: "cuffd.manual:\(UUID().uuidString.lowercased())")
        } catch let mismatch as DBusTypeMismatch {
            throw ControlError.invalidArguments(mismatch.description)
        }
    }
}
