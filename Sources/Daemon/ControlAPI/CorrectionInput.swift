import HealthStore
import ReadingQueries

/// The words and texts a correction of the record takes (`AddReading`, `AnnotateReading`; docs/dbus-api.md,
/// "Correcting readings"), each checked where it crosses the bus: a person the configuration names, an arm and a
/// position from ``ReadingAnnotation``'s choices, a note or reason of at most ``MetadataKey/noteLimit`` bytes.
enum CorrectionInput {
    /// A person the configuration names (a cuff's `User=`), else `InvalidArguments` naming those it does.
    static func check(person: String, in people: Set<String>) throws {
        guard people.contains(person) else {
            let known = people.isEmpty ? "the configuration names nobody" : "configured: " + people.sorted().joined(separator: ", ")
            throw ControlError.invalidArguments("no person \"\(person.prefix(80))\" is configured (\(known))")
        }
    }

    static func arm(_ name: String) throws -> MeasurementLocation {
        guard let location = ReadingAnnotation.location(named: name) else {
            throw ControlError.invalidArguments("the arm is \(ReadingAnnotation.armChoices.joined(separator: " or ")), not \"\(name.prefix(80))\"")
        }
        return location
    }

    static func position(_ name: String) throws -> BodyPosition {
        guard let position = ReadingAnnotation.position(named: name) else {
            throw ControlError.invalidArguments("the position is \(ReadingAnnotation.positionChoices.joined(separator: ", ")), not \"\(name.prefix(80))\"")
        }
        return position
    }

    /// A note or a reason: not empty, at most ``MetadataKey/noteLimit`` bytes of UTF-8, no control characters.
    static func checked(_ text: String, _ what: String) throws -> String {
        guard !text.isEmpty else { throw ControlError.invalidArguments("\(what) is not empty") }
        guard text.utf8.count <= MetadataKey.noteLimit else {
            throw ControlError.invalidArguments("\(what) is at most \(MetadataKey.noteLimit) bytes, not \(text.utf8.count)")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ControlError.invalidArguments("\(what) holds no control characters (a new line, a tab, an escape)")
        }
        return text
    }
}
