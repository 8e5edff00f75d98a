import Foundation
import Testing
@testable import cuffctl

/// `export --format csv` (docs/export.md, "CSV").
@Suite("CSV export")
struct CSVExportTests {
    @Test func headerAndARowWithLocalAndUTCTimesCRLFAndUnquotedNumbers() {
        let text = ExportSamples.export(CSVExport(zone: ExportSamples.zone), [ExportSamples.reading(status: 0b00_1101)])
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.count == 3 && lines[2].isEmpty)
        #expect(lines[0] == CSVExport.columns.joined(separator: ","))
        #expect(lines[1] == "2026-11-23T07:15:00+01:00,2026-11-23T06:15:00Z,118,76,90,66,mmHg,alice,1,C4:F3:12:53:F2:C9,A&D Medical,UA-651BLE,5012345,1,0,1,exceedsUpperLimit,0,C4F31253F2C9-1-20261123T071500,0,0,,,,")
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }

    @Test func absentValuesAreEmptyFields() {
        let text = ExportSamples.export(CSVExport(zone: ExportSamples.zone), [ExportSamples.reading(mean: nil, pulse: nil, status: nil, person: nil)])
        let row = text.components(separatedBy: "\r\n")[1].components(separatedBy: ",")
        #expect(row.count == CSVExport.columns.count)
        #expect(row[4].isEmpty && row[5].isEmpty && row[7].isEmpty && row[13...17].allSatisfy(\.isEmpty))
    }

    @Test func fieldsWithCommaQuoteOrLineBreakAreQuotedWithQuotesDoubled() {
        #expect(CSVExport.field("plain") == "plain")
        #expect(CSVExport.field("Omron, Inc") == "\"Omron, Inc\"")
        #expect(CSVExport.field("the \"big\" one") == "\"the \"\"big\"\" one\"")
        #expect(CSVExport.field("two\nlines") == "\"two\nlines\"")
        #expect(CSVExport.field("two\r\nlines") == "\"two\r\nlines\"")
    }

    @Test("A text field a spreadsheet would run as a formula starts with an apostrophe", arguments: ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"])
    func formulaInjection(_ text: String) {
        #expect(CSVExport.defused(text) == "'" + text)
        let row = ExportSamples.export(CSVExport(zone: ExportSamples.zone), [ExportSamples.reading(person: text, manufacturer: text)])
        #expect(row.contains(CSVExport.field("'" + text) + ",1,"))
    }

    @Test func harmlessTextAndNumbersAreLeftAlone() {
        #expect(CSVExport.defused("alice") == "alice")
        #expect(CSVExport.defused("a=b") == "a=b")
        let row = ExportSamples.export(CSVExport(zone: ExportSamples.zone), [ExportSamples.reading(systolic: 118.5, diastolic: 76)])
        #expect(row.contains(",118.5,76,"))
    }
}
