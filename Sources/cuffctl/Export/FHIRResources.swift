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
    /// When it was measured, in `zone` with its offset; one text for each of the reading's Observations.
    let effectiveDateTime: String?

    /// `urn` names the Patient and Device: an exporter that meets the same few thousands of times passes one that
    /// remembers them (``NameBasedUUID/urn(_:)`` is a SHA-1 each).
    init(reading: ReadingOutput, zone: TimeZone = .current, urn: (String) -> String = NameBasedUUID.urn) {
        self.reading = reading
        self.zone = zone
        effectiveDateTime = reading.time.map { ExportTime.local($0, in: zone) }
        syncIdentifier = reading.string("syncIdentifier")
        person = reading.string("person")
        let cuff = reading.device
        self.cuff = cuff
        deviceKey = cuff["address"].map { address in ([address] + ["manufacturer", "model", "serial"].map { cuff[$0] ?? "" }).joined(separator: "/") }
        patientURL = person.map { urn("patient:" + $0) }
        deviceURL = deviceKey.map { urn("device:" + $0) }
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
            [("component", .array(components)), ("note", .array(notes.map { .object([("text", .string($0))]) }))] + bodyCodes)]
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

    /// The arm as `bodySite` and the position as the core body-position extension, where a checked code names them
    /// (docs/reference/fhir-body-codes.md).
    var bodyCodes: [(String, JSONValue)] {
        var codes: [(String, JSONValue)] = []
        if let position = reading.string("position").flatMap(FHIRCodes.bodyPosition) { codes.append(("extension", .array([position]))) }
        if let site = reading.string("arm").flatMap(FHIRCodes.bodySite) { codes.append(("bodySite", site)) }
        return codes
    }

    /// What the reading's corrections say, as `Observation.note` texts (docs/export.md, "FHIR R4"): entered by hand (it
    /// then has no `device`), excluded and why, the arm and position (in words too, as no code names a wrist or
    /// reclining), the person's note.
    var notes: [String] {
        var notes: [String] = []
        if reading.enteredByHand { notes.append("Entered by hand; no device of cuffd measured it.") }
        if let reason = reading.string("exclusionReason") { notes.append("Excluded from statistics and averages: \(reason)") }
        let taken = [reading.string("arm").map { $0.hasSuffix("wrist") ? "on the \($0)" : "on the \($0) arm" }, reading.string("position")]
        if !taken.compactMap({ $0 }).isEmpty { notes.append("Taken " + taken.compactMap { $0 }.joined(separator: ", ") + ".") }
        if let note = reading.string("note") { notes.append(note) }
        return notes
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
        if let effectiveDateTime { resource.append(("effectiveDateTime", .string(effectiveDateTime))) }
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
        return zip(statusBitComponents, bits).map { component, set in set ? component.yes : component.no }
            + (status.pulseRateRange == .reserved
                ? [.object([("code", .object([("text", .string("pulse rate range: reserved value 3"))])), ("valueBoolean", .bool(true))])] : [])
    }

    /// Each status bit's component valued Y and valued N, made once.
    private static let statusBitComponents: [(yes: JSONValue, no: JSONValue)] = FHIRCodes.statusBits.map { code in
        func component(_ value: String) -> JSONValue {
            .object([
                ("code", .object([("coding", .array([.object([("system", .string(FHIRCodes.asn1ToHL7)), ("code", .string(code.0))])])), ("text", .string(code.1))])),
                ("valueCodeableConcept", .object([("coding", .array([.object([("system", .string(FHIRCodes.yesNo)), ("code", .string(value))])]))])),
            ])
        }
        return (component("Y"), component("N"))
    }

    private static func identifier(_ system: String, _ value: String) -> JSONValue {
        .array([.object([("system", .string(system)), ("value", .string(value))])])
    }

    /// RFC 3986's unreserved characters: ASCII letters and digits, `-._~`.
    private static let unreserved = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        .union(CharacterSet(charactersIn: "-._~"))

    /// Whether `byte` is one of RFC 3986's unreserved characters (checked byte by byte: each is ASCII).
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// `identifier=SYSTEM|VALUE`, the value percent-encoded for a URL's query (a sync identifier, hexadecimal
    /// digits and dashes, needs none).
    private static func search(_ system: String, _ value: String) -> String {
        let plain = value.utf8.allSatisfy(isUnreserved)
        return "identifier=\(system)|" + (plain ? value : value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value)
    }
}
