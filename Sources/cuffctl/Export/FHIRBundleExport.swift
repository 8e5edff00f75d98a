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
    /// Their `fullUrl`s, each computed once.
    private let referenceURNs = ReferenceURNs()

    init(kind: Kind, zone: TimeZone = .current) {
        self.kind = kind
        self.zone = zone
    }

    var opening: String { "{\"resourceType\":\"Bundle\",\"type\":\"\(kind.rawValue)\"" }

    /// FHIR's JSON has no empty arrays: a Bundle without entries has no `entry`.
    var closing: String { entries == 0 ? "}\n" : "]}\n" }

    mutating func append(_ reading: ReadingOutput, to output: inout [UInt8]) {
        let resources = FHIRResources(reading: reading, zone: zone, urn: referenceURNs.urn)
        appendReferenced(resources, to: &output)
        for entry in resources.observations { append(entry, to: &output) }
    }

    mutating func appendHeartRate(_ sample: HeartRateOutput, to output: inout [UInt8]) {
        let resources = FHIRResources(reading: sample.sample, zone: zone, urn: referenceURNs.urn)
        appendReferenced(resources, to: &output)
        if let observation = resources.heartRateObservation { append(observation, to: &output) }
    }

    /// The Patient and Device an Observation refers to, each the first time.
    private mutating func appendReferenced(_ resources: FHIRResources, to output: inout [UInt8]) {
        for (url, entry) in [(resources.patientURL, { resources.patient }), (resources.deviceURL, { resources.device })] {
            guard let url, referenced.insert(url).inserted, let entry = entry() else { continue }
            append(entry, to: &output)
        }
    }

    private mutating func append(_ entry: FHIRResources.Entry, to output: inout [UInt8]) {
        separate(&output)
        self.entry(entry).render(into: &output)
    }

    private mutating func separate(_ output: inout [UInt8]) {
        entries += 1
        output += (entries == 1 ? ",\"entry\":[" : ",").utf8
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

/// The `urn:uuid:` of each Patient and Device an export names (a few), so that each is a SHA-1 once, not once a
/// reading.
private final class ReferenceURNs {
    private var known: [String: String] = [:]

    func urn(_ name: String) -> String {
        if let urn = known[name] { return urn }
        let urn = NameBasedUUID.urn(name)
        known[name] = urn
        return urn
    }
}
