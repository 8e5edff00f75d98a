import Foundation
import ReadingColumns
import TerminalEscaping

/// The self-contained HTML page of `cuffctl report` (docs/report.md): no script, font or image from anywhere,
/// laid out for A4.
struct ReportPage {
    let readings: [ReportReading]
    let period: (start: Date?, end: Date)
    let person: String?
    let zone: TimeZone
    /// Heart-rate sensors' samples of the period, summarized by day when there are any.
    var heartRates: [HeartRateOutput] = []

    var html: String {
        let sorted = readings.sorted { $0.time < $1.time }
        // Readings excluded on request are listed, struck through, and count nowhere else.
        let counted = sorted.filter { $0.exclusionReason == nil }
        let summary = HomeMonitoringSummary(counted, zone: zone)
        var body = "<h1>Home blood pressure</h1>"
        body += "<p class=\"meta\">\(escape(person.map { "Person: \($0) · " } ?? ""))Period: \(period.start.map { Self.day($0, zone) } ?? "all readings") – \(Self.day(period.end, zone)) · \(sorted.count) reading\(sorted.count == 1 ? "" : "s")\(counted.count < sorted.count ? ", \(sorted.count - counted.count) of them excluded" : "")</p>"
        let heartRateTable = HeartRateDays(heartRates, zone: zone).html
        guard !sorted.isEmpty else {
            body += "<p class=\"empty\">No readings were stored in this period.</p>"
            return Self.document(body + heartRateTable)
        }
        body += "<section>" + TrendChart(readings: counted, zone: zone).svg
        body += "<p class=\"legend\">● morning (04–12 h) ○ evening (16–24 h) ■ other times · shaded: home readings at or above 135/85 mmHg</p></section>"
        body += summaryTable(summary)
        let devices = Set(sorted.map(\.device)).sorted()
        body += "<p class=\"meta\">Devices: \(escape(devices.joined(separator: "; ")))</p>"
        body += "<table class=\"readings\"><thead><tr><th>Date</th><th>Time</th><th>mmHg</th><th>Pulse</th><th>Flags</th><th>Notes</th></tr></thead><tbody>"
        for reading in sorted {
            let values = "\(ReadingOutput.whole(reading.systolic))/\(ReadingOutput.whole(reading.diastolic))"
            let notes = (reading.exclusionReason.map { ["excluded: \($0)"] } ?? []) + reading.remarks
            body += "<tr\(reading.exclusionReason == nil ? "" : " class=\"excluded\"")><td>\(Self.day(reading.time, zone))</td><td>\(Self.clock(reading.time, zone))</td>"
            body += "<td>\(reading.exclusionReason == nil ? values : "<s>\(values)</s>")</td><td>\(reading.pulse.map(ReadingOutput.whole) ?? "")</td>"
            body += "<td>\(escape(reading.flags.joined(separator: ", ")))</td><td>\(escape(notes.joined(separator: "; ")))</td></tr>"
        }
        body += "</tbody></table>"
        return Self.document(body + heartRateTable)
    }

    private func summaryTable(_ summary: HomeMonitoringSummary) -> String {
        func row(_ title: String, _ average: HomeMonitoringSummary.Average?) -> String {
            guard let average else { return "<tr><th>\(title)</th><td colspan=\"2\">no readings</td></tr>" }
            return "<tr><th>\(title)</th><td>\(ReadingOutput.whole(average.systolic))/\(ReadingOutput.whole(average.diastolic)) mmHg</td><td>\(average.count) reading\(average.count == 1 ? "" : "s")</td></tr>"
        }
        var html = "<table class=\"summary\"><tbody>"
        html += row("All readings", summary.all) + row("Mornings", summary.mornings) + row("Evenings", summary.evenings)
        html += row("ESH home protocol (first day left out)", summary.protocolAverage)
        html += "</tbody></table>"
        if let shortfall = summary.protocolShortfall {
            html += "<p>The ESH home monitoring protocol's average is not given: \(escape(shortfall)).</p>"
        }
        if let average = summary.protocolAverage ?? summary.all {
            html += "<p class=\"reference\">For reference, not a diagnosis — 2017 ACC/AHA: \(BloodPressureCategory.accAha2017(home: average.systolic, average.diastolic)); 2023 ESH: \(BloodPressureCategory.esh2023(home: average.systolic, average.diastolic)).</p>"
        }
        return html
    }

    /// `text` for the page: what a device sent escaped as on a terminal (``TerminalText``; the page may be printed to
    /// one, and HTML has no use for control characters), then `&`, `<`, `>` and `"` as entities.
    private func escape(_ text: String) -> String {
        TerminalText.escaped(text).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func day(_ date: Date, _ zone: TimeZone) -> String { WallClock(date, in: zone).date }

    static func clock(_ date: Date, _ zone: TimeZone) -> String { WallClock(date, in: zone).minutes }

    private static func document(_ body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Home blood pressure</title>
        <style>
        @page { size: A4; margin: 15mm; }
        body { font-family: sans-serif; font-size: 10pt; color: #111; max-width: 180mm; margin: auto; }
        h1 { font-size: 16pt; margin: 0 0 4pt; }
        .meta { color: #444; }
        svg { width: 100%; height: auto; }
        .band { fill: #fde3e3; } .threshold { stroke: #c33; stroke-dasharray: 4 3; } .threshold.dia { stroke: #36c; }
        .axis { font-size: 8px; text-anchor: end; fill: #555; } .axis.time.start { text-anchor: start; } .axis.time.end { text-anchor: end; } .label { font-size: 9px; fill: #333; }
        .reading-sys { fill: #c33; stroke: #c33; } .reading-dia { fill: #36c; stroke: #36c; } .reading-pulse { fill: #393; stroke: #393; }
        circle.evening { fill: #fff; stroke-width: 1.5; }
        table { border-collapse: collapse; margin: 6pt 0; } th, td { text-align: left; padding: 1pt 6pt; border-bottom: 0.5pt solid #ccc; }
        table.readings { width: 100%; font-size: 9pt; } tr { page-break-inside: avoid; }
        .reference { font-style: italic; } .empty { font-size: 12pt; } tr.excluded { color: #777; }
        </style></head><body>
        \(body)
        </body></html>

        """
    }
}
