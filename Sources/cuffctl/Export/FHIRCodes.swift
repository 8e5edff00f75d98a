/// The code systems, codes and profiles of `cuffctl export --format fhir` (docs/export.md, "FHIR R4", where
/// each is traced to its source: FHIR R4 vital-signs profiles, LOINC, UCUM, IEEE 11073-10101, the HL7 PHD
/// implementation guide).
enum FHIRCodes {
    static let loinc = "http://loinc.org"
    static let mdc = "urn:iso:std:iso:11073:10101"
    static let ucum = "http://unitsofmeasure.org"
    static let snomed = "http://snomed.info/sct"
    /// The FHIR core extension for the body position during an Observation (docs/reference/fhir-body-codes.md).
    static let bodyPositionExtension = "http://hl7.org/fhir/StructureDefinition/observation-bodyPosition"
    static let observationCategory = "http://terminology.hl7.org/CodeSystem/observation-category"
    /// The PHD guide's code system for the bits of an IEEE 11073 BITS value (`<MDC code>.<bit>`).
    static let asn1ToHL7 = "http://hl7.org/fhir/uv/phd/CodeSystem/ASN1ToHL7"
    /// HL7 v2 table 0136, yes/no: a bit's value.
    static let yesNo = "http://terminology.hl7.org/CodeSystem/v2-0136"

    static let bloodPressureProfile = "http://hl7.org/fhir/StructureDefinition/bp"
    static let heartRateProfile = "http://hl7.org/fhir/StructureDefinition/heartrate"

    /// cuffd's identifier systems: a reading's sync identifier names its three Observations, one system each, so
    /// that a conditional create of one never matches another.
    static let syncIdentifier = "urn:cuffd:sync-identifier"
    static let pulseSyncIdentifier = "urn:cuffd:sync-identifier:pulse-rate"
    static let statusSyncIdentifier = "urn:cuffd:sync-identifier:measurement-status"
    /// A heart-rate sensor's sample (its sync identifier names it alone).
    static let heartRateSyncIdentifier = "urn:cuffd:sync-identifier:heart-rate"
    static let person = "urn:cuffd:person"
    /// A cuff: `ADDRESS/MANUFACTURER/MODEL/SERIAL` (``FHIRResources/deviceKey``).
    static let device = "urn:cuffd:device"
    static let bluetoothAddress = "urn:cuffd:bluetooth-address"

    static func coding(_ system: String, _ code: String, _ display: String) -> JSONValue {
        .object([("system", .string(system)), ("code", .string(code)), ("display", .string(display))])
    }

    static let vitalSigns = JSONValue.array([.object([("coding", .array([coding(observationCategory, "vital-signs", "Vital Signs")]))])])

    /// A CodeableConcept of a LOINC code and its MDC twin.
    static func concept(loinc: (String, String), mdc: (String, String), text: String? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("coding", .array([coding(Self.loinc, loinc.0, loinc.1), coding(Self.mdc, mdc.0, mdc.1)]))]
        if let text { members.append(("text", .string(text))) }
        return .object(members)
    }

    static let bloodPressure = concept(loinc: ("85354-9", "Blood pressure panel with all children optional"), mdc: ("150020", "MDC_PRESS_BLD_NONINV"), text: "Blood pressure")
    static let systolic = concept(loinc: ("8480-6", "Systolic blood pressure"), mdc: ("150021", "MDC_PRESS_BLD_NONINV_SYS"))
    static let diastolic = concept(loinc: ("8462-4", "Diastolic blood pressure"), mdc: ("150022", "MDC_PRESS_BLD_NONINV_DIA"))
    static let mean = concept(loinc: ("8478-0", "Mean blood pressure"), mdc: ("150023", "MDC_PRESS_BLD_NONINV_MEAN"))
    static let heartRate = concept(loinc: ("8867-4", "Heart rate"), mdc: ("149546", "MDC_PULS_RATE_NON_INV"), text: "Pulse rate (from the blood-pressure cuff)")
    /// A heart-rate sensor's rate: LOINC 8867-4 and MDC 147842 `MDC_ECG_HEART_RATE` (partition 2, term 16770), the
    /// pair the HL7 Point-of-Care Device implementation guide's heart-rate Observation example codes it with.
    static let sensorHeartRate = concept(loinc: ("8867-4", "Heart rate"), mdc: ("147842", "MDC_ECG_HEART_RATE"), text: "Heart rate (from a heart-rate sensor)")
    static let measurementStatus = JSONValue.object([
        ("coding", .array([coding(mdc, "8410608", "MDC_BLOOD_PRESSURE_MEASUREMENT_STATUS")])), ("text", .string("Blood pressure measurement status")),
    ])

    /// The PHD guide's codes for the Measurement Status bits, with cuffd's bit numbers (GATT 0x2A35, which has
    /// the same order): 0 body movement, 1 cuff too loose, 2 irregular pulse, 3 pulse above and 4 below the
    /// range the cuff measures, 5 improper position.
    static let statusBits = [
        ("8410608.0", "body-movement"), ("8410608.1", "cuff-too-loose"), ("8410608.2", "irregular-pulse"),
        ("8410608.3", "pulse-over-range-limit"), ("8410608.4", "pulse-under-range-limit"), ("8410608.5", "improper-body-position"),
    ]

    /// `Observation.bodySite` of an arm (`left`, `right`), SNOMED CT as docs/reference/fhir-body-codes.md traces
    /// them; nil for another place (a wrist), which no checked code names.
    static func bodySite(arm: String) -> JSONValue? {
        let codes = ["left": ("368208006", "Left upper arm structure"), "right": ("368209003", "Right upper arm structure")]
        return codes[arm].map { .object([("coding", .array([coding(snomed, $0.0, $0.1)]))]) }
    }

    /// The body-position extension of a position (`sitting`, `standing`, `lying`), SNOMED CT as
    /// docs/reference/fhir-body-codes.md traces them; nil for another (reclining), which no checked code names.
    static func bodyPosition(_ position: String) -> JSONValue? {
        let codes = [
            "sitting": ("33586001", "Sitting position"), "standing": ("10904000", "Orthostatic body position"),
            "lying": ("102538003", "Recumbent body position"),
        ]
        return codes[position].map {
            .object([("url", .string(bodyPositionExtension)), ("valueCodeableConcept", .object([("coding", .array([coding(snomed, $0.0, $0.1)]))]))])
        }
    }

    static func quantity(_ value: Double, unit: String, code: String) -> JSONValue {
        .object([("value", .number(ReadingOutput.text(value))), ("unit", .string(unit)), ("system", .string(ucum)), ("code", .string(code))])
    }

    static func millimetresOfMercury(_ value: Double) -> JSONValue { quantity(value, unit: "mmHg", code: "mm[Hg]") }
    static func perMinute(_ value: Double) -> JSONValue { quantity(value, unit: "/min", code: "/min") }
}
