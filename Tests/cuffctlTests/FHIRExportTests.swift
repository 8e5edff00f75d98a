import DBus
import Foundation
import Testing
@testable import cuffctl

/// `export --format fhir` (docs/export.md, "FHIR R4"). The e2e tests validate whole Bundles with fhir.resources.
@Suite("FHIR export")
struct FHIRExportTests {
    static func bundle(_ kind: FHIRBundleExport.Kind, _ readings: [ReadingOutput]) throws -> [String: Any] {
        let text = ExportSamples.export(FHIRBundleExport(kind: kind, zone: ExportSamples.zone), readings)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func resources(_ bundle: [String: Any]) -> [[String: Any]] {
        (bundle["entry"] as? [[String: Any]] ?? []).compactMap { $0["resource"] as? [String: Any] }
    }

    static func codes(_ concept: Any?) -> [String] {
        ((concept as? [String: Any])?["coding"] as? [[String: Any]] ?? []).map { "\($0["system"]!)|\($0["code"]!)" }
    }

    @Test func aReadingIsPatientDeviceBloodPressurePulseAndStatus() throws {
        let bundle = try Self.bundle(.collection, [ExportSamples.reading(status: 0b10_0100)])
        #expect(bundle["resourceType"] as? String == "Bundle" && bundle["type"] as? String == "collection")
        let resources = Self.resources(bundle)
        #expect(resources.map { $0["resourceType"] as! String } == ["Patient", "Device", "Observation", "Observation", "Observation"])
        let (patient, device, pressure, pulse, status) = (resources[0], resources[1], resources[2], resources[3], resources[4])
        let urls = (bundle["entry"] as! [[String: Any]]).map { $0["fullUrl"] as! String }
        #expect(urls.allSatisfy { $0.hasPrefix("urn:uuid:") } && Set(urls).count == 5)

        #expect((patient["name"] as? [[String: Any]])?.first?["text"] as? String == "alice")
        #expect(device["manufacturer"] as? String == "A&D Medical" && device["modelNumber"] as? String == "UA-651BLE" && device["serialNumber"] as? String == "5012345")

        #expect((pressure["meta"] as? [String: Any])?["profile"] as? [String] == ["http://hl7.org/fhir/StructureDefinition/bp"])
        #expect(pressure["status"] as? String == "final")
        #expect(Self.codes((pressure["category"] as? [Any])?.first) == ["http://terminology.hl7.org/CodeSystem/observation-category|vital-signs"])
        #expect(Self.codes(pressure["code"]) == ["http://loinc.org|85354-9", "urn:iso:std:iso:11073:10101|150020"])
        #expect(pressure["effectiveDateTime"] as? String == "2026-11-23T07:15:00+01:00")
        #expect((pressure["identifier"] as? [[String: String]])?.first == ["system": "urn:cuffd:sync-identifier", "value": "C4F31253F2C9-1-20261123T071500"])
        #expect((pressure["subject"] as? [String: String])?["reference"] == urls[0])
        #expect((pressure["device"] as? [String: String])?["reference"] == urls[1])
        let components = pressure["component"] as! [[String: Any]]
        #expect(components.map { Self.codes($0["code"]) } == [
            ["http://loinc.org|8480-6", "urn:iso:std:iso:11073:10101|150021"], ["http://loinc.org|8462-4", "urn:iso:std:iso:11073:10101|150022"],
            ["http://loinc.org|8478-0", "urn:iso:std:iso:11073:10101|150023"],
        ])
        #expect(components.map { ($0["valueQuantity"] as! [String: Any])["value"] as! Double } == [118, 76, 90])
        #expect(components.allSatisfy { ($0["valueQuantity"] as! [String: Any])["code"] as? String == "mm[Hg]" })
        #expect(components.allSatisfy { ($0["valueQuantity"] as! [String: Any])["system"] as? String == "http://unitsofmeasure.org" })

        #expect((pulse["meta"] as? [String: Any])?["profile"] as? [String] == ["http://hl7.org/fhir/StructureDefinition/heartrate"])
        #expect(Self.codes(pulse["code"]) == ["http://loinc.org|8867-4", "urn:iso:std:iso:11073:10101|149546"])
        #expect(pulse["valueQuantity"] as? NSDictionary == ["value": 66, "unit": "/min", "system": "http://unitsofmeasure.org", "code": "/min"])
        #expect((pulse["derivedFrom"] as? [[String: String]])?.first?["reference"] == urls[2])

        #expect(Self.codes(status["code"]) == ["urn:iso:std:iso:11073:10101|8410608"])
        #expect((status["derivedFrom"] as? [[String: String]])?.first?["reference"] == urls[2])
        let bits = (status["component"] as! [[String: Any]]).map { component in
            (Self.codes(component["code"]).first!, Self.codes(component["valueCodeableConcept"]).first!.hasSuffix("|Y"))
        }
        #expect(bits.map(\.0) == (0...5).map { "http://hl7.org/fhir/uv/phd/CodeSystem/ASN1ToHL7|8410608.\($0)" })
        #expect(bits.map(\.1) == [false, false, true, false, false, true])
    }

    /// docs/reference/fhir-body-codes.md: the arm as `bodySite`, the position as the core body-position extension, each
    /// SNOMED CT; a wrist and reclining have no checked code and are said in the note only.
    @Test("arm and position coded", arguments: [
        ("left", "sitting", ["http://snomed.info/sct|368208006"], ["http://snomed.info/sct|33586001"]),
        ("right", "standing", ["http://snomed.info/sct|368209003"], ["http://snomed.info/sct|10904000"]),
        ("left wrist", "lying", [], ["http://snomed.info/sct|102538003"]),
        ("right", "reclining", ["http://snomed.info/sct|368209003"], []),
    ])
    func armAndPosition(arm: String, position: String, site: [String], posture: [String]) throws {
        var fields = ExportSamples.reading().fields
        fields["arm"] = DBusVariant(arm)
        fields["position"] = DBusVariant(position)
        let pressure = Self.resources(try Self.bundle(.collection, [ReadingOutput(fields: fields)]))[2]
        #expect(Self.codes(pressure["bodySite"]) == site)
        let extensions = pressure["extension"] as? [[String: Any]] ?? []
        #expect(extensions.allSatisfy { $0["url"] as? String == "http://hl7.org/fhir/StructureDefinition/observation-bodyPosition" })
        #expect(extensions.flatMap { Self.codes($0["valueCodeableConcept"]) } == posture)
        let notes = (pressure["note"] as? [[String: String]] ?? []).compactMap { $0["text"] }
        #expect(notes.contains { $0.hasPrefix("Taken on the \(arm)") && $0.hasSuffix("\(position).") }, "\(notes)")
    }

    @Test func pulseRateRangeBitsAndTheReservedValue() {
        func set(_ raw: UInt16) -> [Bool] {
            FHIRResources.statusComponents(raw).prefix(6).map { $0.rendered.contains("\"code\":\"Y\"") }
        }
        #expect(set(1 << 3) == [false, false, false, true, false, false])
        #expect(set(2 << 3) == [false, false, false, false, true, false])
        #expect(set(0b11) == [true, true, false, false, false, false])
        #expect(FHIRResources.statusComponents(3 << 3).count == 7)
        #expect(FHIRResources.statusComponents(3 << 3).last?.rendered.contains("reserved") == true)
    }

    @Test func withoutPersonPulseOrStatusTheirPartsAreLeftOut() throws {
        let resources = Self.resources(try Self.bundle(.collection, [ExportSamples.reading(mean: nil, pulse: nil, status: nil, person: nil)]))
        #expect(resources.map { $0["resourceType"] as! String } == ["Device", "Observation"])
        #expect(resources[1]["subject"] == nil && (resources[1]["component"] as? [Any])?.count == 2)
    }

    @Test func patientsAndDevicesAreWrittenOnceAndReExportIsIdentical() throws {
        let readings = [ExportSamples.reading(syncIdentifier: "a"), ExportSamples.reading(syncIdentifier: "b"), ExportSamples.reading(person: "bob", syncIdentifier: "c")]
        let kinds = Self.resources(try Self.bundle(.collection, readings)).map { $0["resourceType"] as! String }
        #expect(kinds.filter { $0 == "Patient" }.count == 2 && kinds.filter { $0 == "Device" }.count == 1 && kinds.count == 12)
        // The same address with other Device Information is another Device.
        let other = Self.resources(try Self.bundle(.collection, readings + [ExportSamples.reading(manufacturer: "Other", syncIdentifier: "d")]))
        #expect(other.filter { $0["resourceType"] as? String == "Device" }.count == 2)
        let once = ExportSamples.export(FHIRBundleExport(kind: .collection, zone: ExportSamples.zone), readings)
        #expect(once == ExportSamples.export(FHIRBundleExport(kind: .collection, zone: ExportSamples.zone), readings))
    }

    @Test func aTransactionCreatesEachResourceUnlessItsIdentifierExists() throws {
        let bundle = try Self.bundle(.transaction, [ExportSamples.reading(person: "Zoë & Co")])
        #expect(bundle["type"] as? String == "transaction")
        let requests = (bundle["entry"] as! [[String: Any]]).map { $0["request"] as! [String: String] }
        #expect(requests.map { $0["method"] } == Array(repeating: "POST", count: 5))
        #expect(requests.map { $0["url"] } == ["Patient", "Device", "Observation", "Observation", "Observation"])
        #expect(requests.map { $0["ifNoneExist"]! } == [
            "identifier=urn:cuffd:person|Zo%C3%AB%20%26%20Co", "identifier=urn:cuffd:device|C4%3AF3%3A12%3A53%3AF2%3AC9%2FA%26D%20Medical%2FUA-651BLE%2F5012345",
            "identifier=urn:cuffd:sync-identifier|C4F31253F2C9-1-20261123T071500",
            "identifier=urn:cuffd:sync-identifier:pulse-rate|C4F31253F2C9-1-20261123T071500",
            "identifier=urn:cuffd:sync-identifier:measurement-status|C4F31253F2C9-1-20261123T071500",
        ])
    }

    @Test func anEmptyExportIsABundleWithoutEntries() throws {
        #expect(ExportSamples.export(FHIRBundleExport(kind: .collection, zone: ExportSamples.zone), []) == "{\"resourceType\":\"Bundle\",\"type\":\"collection\"}\n")
    }
}
