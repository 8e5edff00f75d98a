import Foundation

/// `cuffctl export --format fhir` (docs/export.md, "FHIR R4"): one FHIR R4 (4.0.1) Bundle, written as it
/// goes — its opening, each reading's entries as they come, its closing. A `collection` holds the resources;
/// a `transaction` adds to each a conditional create (`POST`, `ifNoneExist` on its identifier), so that sending
/// an export again creates nothing twice. A Patient or Device is written once, before the first reading
/// that refers to it.
struct FHIRBundleExport: ExportFormatter {
    enum Kind: String, CaseIterable {
        case collection, transaction
    }

    let kind: Kind
    let zone: TimeZone
    private var entries = 0
    /// The Patients and Devices already written (a few per export).
    private var referenced = Set<String>()

    init(kind: Kind, zone: TimeZone = .current) {
        self.kind = kind
        self.zone = zone
    }

    var opening: String { "{\"resourceType\":\"Bundle\",\"type\":\"\(kind.rawValue)\"" }

    /// FHIR's JSON has no empty arrays: a Bundle without entries has no `entry`.
    var closing: String { entries == 0 ? "}\n" : "]}\n" }

    mutating func text(for reading: ReadingOutput) -> String {
        let resources = FHIRResources(reading: reading, zone: zone)
        var text = ""
        for entry in [resources.patient, resources.device].compactMap({ $0 }) {
            guard referenced.insert(entry.fullUrl).inserted else { continue }
            text += separator()
            self.entry(entry).render(into: &text)
        }
        for entry in resources.observations {
            text += separator()
            self.entry(entry).render(into: &text)
        }
        return text
    }

    private mutating func separator() -> String {
        entries += 1
        return entries == 1 ? ",\"entry\":[" : ","
    }

    private func entry(_ entry: FHIRResources.Entry) -> JSONValue {
        var members: [(String, JSONValue)] = [("fullUrl", .string(entry.fullUrl)), ("resource", entry.resource)]
        if kind == .transaction {
            members.append(("request", .object([
                ("method", .string("POST")), ("url", .string(entry.type)), ("ifNoneExist", .string(entry.ifNoneExist)),
            ])))
        }
        return .object(members)
    }
}
