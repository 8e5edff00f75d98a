import DBus
import Foundation
import ReadingColumns
import Testing
@testable import cuffctl

@Suite("cuffctl report: averages, categories, chart and page")
struct ReportTests {
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }

    /// A reading at `hour`:00 Berlin time on 2026-11-`day`.
    static func reading(day: Int, hour: Int, _ systolic: Double, _ diastolic: Double, status: UInt16 = 0) -> ReportReading {
        let date = calendar.date(from: DateComponents(year: 2026, month: 11, day: day, hour: hour))!
        return ReportReading(time: date, systolic: systolic, diastolic: diastolic, pulse: 70, status: status, device: "ACME BP-1 C4:F3:12:53:F2:C9")
    }

    @Test("The ESH protocol's average leaves the first day out, and needs three days with mornings and evenings")
    func protocolAverage() {
        var readings = [Self.reading(day: 1, hour: 8, 180, 110), Self.reading(day: 1, hour: 20, 180, 110)]
        for day in 2 ... 4 {
            readings += [Self.reading(day: day, hour: 7, 130, 80), Self.reading(day: day, hour: 21, 120, 76)]
        }
        let summary = HomeMonitoringSummary(readings, zone: Self.calendar.timeZone)
        #expect(summary.protocolAverage == .init(systolic: 125, diastolic: 78, count: 6))
        #expect(summary.all?.count == 8)
        #expect(summary.mornings == .init(systolic: 142.5, diastolic: 87.5, count: 4))
        #expect(summary.protocolShortfall == nil)

        let short = HomeMonitoringSummary(Array(readings.prefix(6)), zone: Self.calendar.timeZone)
        #expect(short.protocolAverage == nil)
        #expect(short.protocolShortfall?.contains("2 days have both a morning and an evening reading") == true)
    }

    @Test("Guideline categories of a home average", arguments: [
        (118.0, 76.0, "normal", "below"), (124, 78, "elevated", "below"), (131, 79, "stage 1", "below"),
        (128, 82, "stage 1", "below"), (136, 80, "stage 2", "at or above"), (120, 86, "stage 2", "at or above"),
        (134.9, 84.9, "stage 1", "below"), (135, 60, "stage 2", "at or above"), (100, 85, "stage 2", "at or above"),
    ])
    func categories(_ systolic: Double, _ diastolic: Double, _ accAha: String, _ esh: String) {
        #expect(BloodPressureCategory.accAha2017(home: systolic, diastolic).hasPrefix(accAha))
        #expect(BloodPressureCategory.esh2023(home: systolic, diastolic).hasPrefix(esh))
        // The state cuff-forward publishes for a reading (docs/home-assistant.md) is the same threshold's.
        #expect(BloodPressureCategory.esh2023Home(systolic, diastolic) == (esh == "below" ? .below : .atOrAbove))
    }

    @Test("One systolic and one diastolic mark per reading; evenings hollow; flags in words; nothing fetched")
    func page() {
        let readings = [Self.reading(day: 2, hour: 7, 130, 80, status: 0x0004), Self.reading(day: 2, hour: 21, 121, 77), Self.reading(day: 3, hour: 14, 125, 79)]
        let html = ReportPage(readings: readings, period: (nil, readings[2].time), person: "Ann <& Bob>", zone: Self.calendar.timeZone).html
        #expect(html.components(separatedBy: "class=\"reading-sys ").count - 1 == 3)
        #expect(html.components(separatedBy: "class=\"reading-dia ").count - 1 == 3)
        #expect(html.contains("class=\"reading-sys evening\""))
        #expect(html.contains("irregular pulse"))
        #expect(html.contains("Ann &lt;&amp; Bob&gt;"))
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("url("))
        #expect(html.components(separatedBy: "http").count - 1 == 1, "only the SVG namespace")
    }

    @Test("An empty period says so")
    func emptyPeriod() {
        let html = ReportPage(readings: [], period: (Date(timeIntervalSince1970: 0), Date()), person: nil, zone: Self.calendar.timeZone).html
        #expect(html.contains("No readings were stored in this period."))
        #expect(!html.contains("<svg"))
    }

    @Test("Heart-rate sensors' values by local day: lowest, mean and highest of those with contact, the others counted apart")
    func heartRateDays() {
        func sample(day: Int, hour: Int, _ rate: Double, contact: String = "detected") -> HeartRateOutput {
            let date = Self.calendar.date(from: DateComponents(year: 2026, month: 11, day: day, hour: hour))!
            return HeartRateOutput(ReadingOutput(fields: [
                "heartRate": DBusVariant(rate), "time": DBusVariant(date.timeIntervalSince1970), "sensorContact": DBusVariant(contact),
            ]))
        }
        let samples = [sample(day: 2, hour: 23, 60), sample(day: 2, hour: 9, 80), sample(day: 2, hour: 10, 200, contact: "notDetected"),
                       sample(day: 3, hour: 0, 90)]
        let days = HeartRateDays(samples, zone: Self.calendar.timeZone).days
        #expect(days.map(\.date) == ["2026-11-02", "2026-11-03"], "23:00 and midnight Berlin time are different days")
        #expect(days[0].count == 3 && days[0].withoutContact == 1)
        #expect(days[0].minimum == 60 && days[0].maximum == 80 && days[0].mean == 70)
        let html = ReportPage(readings: [], period: (nil, Date()), person: nil, zone: Self.calendar.timeZone, heartRates: samples).html
        #expect(html.contains("Heart rate (from a heart-rate sensor)"))
        #expect(html.contains("<td>2026-11-02</td><td>3</td><td>60/min</td><td>70/min</td><td>80/min</td><td>1 (not in the figures)</td>"))
        #expect(!ReportPage(readings: [], period: (nil, Date()), person: nil, zone: Self.calendar.timeZone).html.contains("Heart rate"))
    }
}

@Suite("cuffctl report: corrected readings")
struct ReportCorrectionTests {
    @Test("An excluded reading is listed struck through with its reason, and left out of the chart and every average; one entered by hand says so")
    func excludedAndEnteredByHand() throws {
        var guest = ReportTests.reading(day: 2, hour: 8, 190, 120)
        guest.exclusionReason = "a guest used the cuff"
        var manual = ReportTests.reading(day: 2, hour: 20, 120, 80)
        manual.remarks = ["entered by hand", "left arm", "sitting", "pharmacy"]
        let readings = [ReportTests.reading(day: 2, hour: 7, 130, 84), guest, manual]
        let html = ReportPage(readings: readings, period: (nil, Date()), person: nil, zone: ReportTests.calendar.timeZone).html
        #expect(html.contains("<s>190/120</s>") && html.contains("excluded: a guest used the cuff"))
        #expect(html.contains("entered by hand; left arm; sitting; pharmacy"))
        #expect(html.contains("3 readings, 1 of them excluded"))
        // The period's average is of the two that count: 125/82.
        #expect(html.contains("<th>All readings</th><td>125/82 mmHg</td><td>2 readings</td>"), "\(html)")
        // Two readings drawn: a systolic and a diastolic mark each.
        #expect(html.components(separatedBy: "class=\"reading-sys").count - 1 == 2)
    }
}
