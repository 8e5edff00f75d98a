import Foundation
import GATTHealth

/// The FHIR R4 resources of one reading (docs/export.md, "FHIR R4"): its blood-pressure Observation, its pulse
/// as a heart-rate Observation and its Measurement Status as a bits Observation, both `derivedFrom` the first,
/// and the Patient (the mapped person) and Device (the cuff) they refer to. Every resource is named by a
/// version 5 UUID of what identifies it, so an export made again is the same.
struct FHIRResources {
    /// A resource with the `fullUrl` it goes by and the search a transaction creates it on unless it exists.
    struct Entry {
        let fullUrl: String
        let type: String
        let resource: JSONValue
        let ifNoneExist: String
    }

    let reading: ReadingOutput
    let zone: TimeZone
    let syncIdentifier: String?
    let person: String?
    /// The cuff as cuffd describes it (`address`, `name`, `manufacturer`, `model`, `serial`).
    let cuff: [String: String]
    /// What tells one cuff from another: its address and what it says of itself (an address can pass to another
    /// cuff, or a cuff's Device Information change with its firmware), `ADDRESS/MANUFACTURER/MODEL/SERIAL`.
    let deviceKey: String?
    /// The `fullUrl`s of the Patient and Device, which every Observation refers to.
    let patientURL: String?
    let deviceURL: String?

    init(reading: ReadingOutput, zone: TimeZone = .current) {
        self.reading = reading
        self.zone = zone
        syncIdentifier = reading.string("syncIdentifier")
        person = reading.string("person")
        let cuff = reading.device
        self.cuff = cuff
        deviceKey = cuff["address"].map { address in ([address] + ["manufacturer", "model", "serial"].map { cuff[$0] ?? "" }).joined(separator: "/") }
        patientURL = person.map { NameBasedUUID.urn("patient:" + $0) }
        deviceURL = deviceKey.map { NameBasedUUID.urn("device:" + $0) }
    }

    var patient: Entry? {
        guard let person, let patientURL else { return nil }
        return Entry(
            fullUrl: patientURL, type: "Patient",
            resource: .object([
                ("resourceType", .string("Patient")), ("identifier", Self.identifier(FHIRCodes.person, person)),
                ("name", .array([.object([("text", .string(person))])])),
            ]),
            ifNoneExist: Self.search(FHIRCodes.person, person))
    }

    var device: Entry? {
        guard let address = cuff["address"], let deviceKey, let deviceURL else { return nil }
        let device = cuff
        let identifiers = JSONValue.array([
            .object([("system", .string(FHIRCodes.device)), ("value", .string(deviceKey))]),
            .object([("system", .string(FHIRCodes.bluetoothAddress)), ("value", .string(address))]),
        ])
        var resource: [(String, JSONValue)] = [("resourceType", .string("Device")), ("identifier", identifiers)]
        if let manufacturer = device["manufacturer"] { resource.append(("manufacturer", .string(manufacturer))) }
        if let serial = device["serial"] { resource.append(("serialNumber", .string(serial))) }
        if let name = device["name"] { resource.append(("deviceName", .array([.object([("name", .string(name)), ("type", .string("user-friendly-name"))])]))) }
        if let model = device["model"] { resource.append(("modelNumber", .string(model))) }
        return Entry(fullUrl: deviceURL, type: "Device", resource: .object(resource), ifNoneExist: Self.search(FHIRCodes.device, deviceKey))
    }

    /// The reading's Observations: blood pressure, then pulse and status where the reading has them.
    var observations: [Entry] {
        guard let syncIdentifier else { return [] }
        let bloodPressureURL = NameBasedUUID.urn("blood-pressure:" + syncIdentifier)
        var components: [JSONValue] = []
        for (key, code) in [("systolic", FHIRCodes.systolic), ("diastolic", FHIRCodes.diastolic), ("meanArterialPressure", FHIRCodes.mean)] {
            guard let value = reading.double(key) else { continue }
            components.append(.object([("code", code), ("valueQuantity", FHIRCodes.millimetresOfMercury(value))]))
        }
        var entries = [observation(
            url: bloodPressureURL, profile: FHIRCodes.bloodPressureProfile, system: FHIRCodes.syncIdentifier, code: FHIRCodes.bloodPressure,
            [("component", .array(components))])]
        let derived = ("derivedFrom", JSONValue.array([.object([("reference", .string(bloodPressureURL))])]))
        if let pulse = reading.double("pulseRate") {
            entries.append(observation(
                url: NameBasedUUID.urn("pulse-rate:" + syncIdentifier), profile: FHIRCodes.heartRateProfile, system: FHIRCodes.pulseSyncIdentifier,
                code: FHIRCodes.heartRate, [("valueQuantity", FHIRCodes.perMinute(pulse)), derived]))
        }
        if let status = reading.status {
            entries.append(observation(
                url: NameBasedUUID.urn("measurement-status:" + syncIdentifier), profile: nil, system: FHIRCodes.statusSyncIdentifier,
                code: FHIRCodes.measurementStatus, [derived, ("component", .array(Self.statusComponents(status)))]))
        }
        return entries
    }

    /// A heart-rate sensor's sample as one Observation under the heart-rate profile; a value sent without skin
    /// contact says so in a note.
    var heartRateObservation: Entry? {
        guard let syncIdentifier, let rate = reading.double("heartRate") else { return nil }
        var rest: [(String, JSONValue)] = [("valueQuantity", FHIRCodes.perMinute(rate))]
        if reading.string("sensorContact") == "notDetected" {
            rest.append(("note", .array([.object([("text", .string("The sensor reported no skin contact."))])])))
        }
        return observation(
            url: NameBasedUUID.urn("heart-rate:" + syncIdentifier), profile: FHIRCodes.heartRateProfile, system: FHIRCodes.heartRateSyncIdentifier,
            code: FHIRCodes.sensorHeartRate, rest)
    }

    private func observation(url: String, profile: String?, system: String, code: JSONValue, _ rest: [(String, JSONValue)]) -> Entry {
        var resource: [(String, JSONValue)] = [("resourceType", .string("Observation"))]
        if let profile { resource.append(("meta", .object([("profile", .array([.string(profile)]))]))) }
        resource += [("identifier", Self.identifier(system, syncIdentifier ?? "")), ("status", .string("final"))]
        if profile != nil { resource.append(("category", FHIRCodes.vitalSigns)) }
        resource.append(("code", code))
        if let patientURL { resource.append(("subject", .object([("reference", .string(patientURL))]))) }
        if let time = reading.time { resource.append(("effectiveDateTime", .string(ExportTime.local(time, in: zone)))) }
        if let deviceURL { resource.append(("device", .object([("reference", .string(deviceURL))]))) }
        resource += rest
        // FHIR's JSON has no empty arrays: an Observation without values leaves `component` out.
        let members = resource.filter { if case let .array(items) = $0.1 { !items.isEmpty } else { true } }
        return Entry(fullUrl: url, type: "Observation", resource: .object(members), ifNoneExist: Self.search(system, syncIdentifier ?? ""))
    }

    /// One component per status bit cuffd knows, valued Y or N (a clear bit may also mean that the cuff does not
    /// detect that condition). The pulse rate range's reserved value 3 sets neither range bit and is named in the text.
    static func statusComponents(_ raw: UInt16) -> [JSONValue] {
        let status = BloodPressureMeasurementStatus(rawValue: raw)
        let bits = [
            status.bodyMovement, status.cuffTooLoose, status.irregularPulse, status.pulseRateRange == .exceedsUpperLimit,
            status.pulseRateRange == .belowLowerLimit, status.improperPosition,
        ]
        return zip(FHIRCodes.statusBits, bits).map { code, set in
            .object([
                ("code", .object([("coding", .array([.object([("system", .string(FHIRCodes.asn1ToHL7)), ("code", .string(code.0))])])), ("text", .string(code.1))])),
                ("valueCodeableConcept", .object([("coding", .array([.object([("system", .string(FHIRCodes.yesNo)), ("code", .string(set ? "Y" : "N"))])]))])),
            ])
        } + (status.pulseRateRange == .reserved
            ? [.object([("code", .object([("text", .string("pulse rate range: reserved value 3"))])), ("valueBoolean", .bool(true))])] : [])
    }

    private static func identifier(_ system: String, _ value: String) -> JSONValue {
        .array([.object([("system", .string(system)), ("value", .string(value))])])
    }

    /// RFC 3986's unreserved characters: ASCII letters and digits, `-._~`.
    private static let unreserved = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        .union(CharacterSet(charactersIn: "-._~"))

    /// `identifier=SYSTEM|VALUE`, the value percent-encoded for a URL's query (a sync identifier, hexadecimal
    /// digits and dashes, needs none).
    private static func search(_ system: String, _ value: String) -> String {
        let plain = value.unicodeScalars.allSatisfy(unreserved.contains)
        return "identifier=\(system)|" + (plain ? value : value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value)
    }
}
