import Foundation
import Testing
@testable import cuffctl

/// `export --format omh` (docs/export.md, "Open mHealth"). The e2e tests check data points against the schemas.
@Suite("Open mHealth export")
struct OpenMHealthExportTests {
    static let created = Date(timeIntervalSince1970: 1_800_000_000)

    static func points(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    @Test func bloodPressureAndHeartRateDataPoints() throws {
        let text = ExportSamples.export(OpenMHealthExport(ndjson: false, created: Self.created, zone: ExportSamples.zone), [ExportSamples.reading()])
        let points = try Self.points(text)
        try #require(points.count == 2)
        let pressure = points[0]["body"] as! [String: Any], pulse = points[1]["body"] as! [String: Any]
        #expect(pressure["systolic_blood_pressure"] as? NSDictionary == ["value": 118, "unit": "mmHg"])
        #expect(pressure["diastolic_blood_pressure"] as? NSDictionary == ["value": 76, "unit": "mmHg"])
        #expect(pressure["effective_time_frame"] as? NSDictionary == ["date_time": "2026-11-23T07:15:00+01:00"])
        #expect(pulse["heart_rate"] as? NSDictionary == ["value": 66, "unit": "beats/min"])
        let header = points[0]["header"] as! [String: Any]
        #expect(header["schema_id"] as? NSDictionary == ["namespace": "omh", "name": "blood-pressure", "version": "4.0"])
        #expect((points[1]["header"] as! [String: Any])["schema_id"] as? NSDictionary == ["namespace": "omh", "name": "heart-rate", "version": "2.0"])
        #expect(header["creation_date_time"] as? String == "2027-01-15T08:00:00Z")
        #expect(header["acquisition_provenance"] as? NSDictionary == [
            "source_name": "A&D Medical UA-651BLE via cuffd", "source_data_point_id": "C4F31253F2C9-1-20261123T071500", "modality": "sensed",
        ])
        #expect(header["user_id"] as? String == "alice")
        let ids = points.map { ($0["header"] as! [String: Any])["id"] as! String }
        #expect(Set(ids).count == 2 && ids.allSatisfy { UUID(uuidString: $0) != nil })
    }

    @Test func ndjsonIsOneDataPointPerLine() throws {
        let readings = [ExportSamples.reading(syncIdentifier: "a"), ExportSamples.reading(pulse: nil, syncIdentifier: "b")]
        let text = ExportSamples.export(OpenMHealthExport(ndjson: true, created: Self.created, zone: ExportSamples.zone), readings)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4 && lines.last?.isEmpty == true)
        let array = try Self.points("[" + lines.dropLast().joined(separator: ",") + "]")
        #expect(array.count == 3)
        #expect(text.hasSuffix("\n") && !text.hasPrefix("["))
    }

    @Test func anEmptyExportIsAnEmptyArray() throws {
        #expect(ExportSamples.export(OpenMHealthExport(ndjson: false, created: Self.created), []) == "[]\n")
        #expect(ExportSamples.export(OpenMHealthExport(ndjson: true, created: Self.created), []) == "")
    }
}
