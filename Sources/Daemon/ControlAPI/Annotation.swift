import DBus
import HealthStore
import ReadingQueries

/// The changes of `AnnotateReading` (docs/dbus-api.md, "Correcting readings"): `exclude` (`s`, the reason) or `include`
/// (`b`), `person` (`s`) or `noPerson` (`b`), `arm`, `position` (`s`), `note` (`s`; `""` removes it) — at least one,
/// no two that contradict each other. What they become: the store's metadata changes of the reading's next revision.
struct Annotation {
    static let keys: Set<String> = ["exclude", "include", "person", "noPerson", "arm", "position", "note"]

    let changes: [MetadataKey: MetadataValue?]

    init(_ dictionary: DBusProperties, people: Set<String>) throws {
        for key in dictionary.keys where !Self.keys.contains(key) {
            throw ControlError.invalidArguments("unknown key \"\(key.prefix(80))\"; expected \(Self.keys.sorted().joined(separator: ", "))")
        }
        guard !dictionary.isEmpty else { throw ControlError.invalidArguments("nothing to change: name what the reading's new revision says") }
        for (one, other) in [("exclude", "include"), ("person", "noPerson")] where dictionary[one] != nil && dictionary[other] != nil {
            throw ControlError.invalidArguments("\(one) and \(other) contradict each other: give one")
        }
        var changes: [MetadataKey: MetadataValue?] = [:]
        do {
            if let reason = try dictionary.property("exclude", as: String.self) {
                changes[.exclusionReason] = .string(try CorrectionInput.checked(reason, "the reason for excluding a reading"))
            }
            if let include = try dictionary.property("include", as: Bool.self) {
                guard include else { throw ControlError.invalidArguments("include is true, or absent") }
                changes[.exclusionReason] = .some(nil)
            }
            if let person = try dictionary.property("person", as: String.self) {
                try CorrectionInput.check(person: person, in: people)
                changes[.personIdentifier] = .string(person)
            }
            if let noPerson = try dictionary.property("noPerson", as: Bool.self) {
                guard noPerson else { throw ControlError.invalidArguments("noPerson is true, or absent") }
                changes[.personIdentifier] = .some(nil)
            }
            if let arm = try dictionary.property("arm", as: String.self) {
                changes[.measurementLocation] = .integer(try CorrectionInput.arm(arm).rawValue)
            }
            if let position = try dictionary.property("position", as: String.self) {
                changes[.bodyPosition] = .integer(try CorrectionInput.position(position).rawValue)
            }
            if let note = try dictionary.property("note", as: String.self) {
                changes[.note] = note.isEmpty ? .some(nil) : .string(try CorrectionInput.checked(note, "a note"))
            }
        } catch let mismatch as DBusTypeMismatch {
            throw ControlError.invalidArguments(mismatch.description)
        }
        self.changes = changes
    }
}
