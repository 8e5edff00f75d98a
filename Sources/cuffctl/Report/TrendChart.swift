import Foundation

/// The report's trend chart as inline SVG (docs/report.md): systolic and diastolic per reading above, pulse
/// below, on one time axis; the home thresholds as shaded bands; morning readings filled, evening ones hollow,
/// others as squares. Every reading is one `reading-sys` and one `reading-dia` mark (the tests count them).
struct TrendChart {
    let readings: [ReportReading]
    let zone: TimeZone

    static let width = 700.0
    static let left = 44.0, right = 10.0
    static let pressureTop = 10.0, pressureHeight = 220.0
    static let pulseTop = 260.0, pulseHeight = 90.0
    static let height = 380.0
    static let pressureRange = 40.0 ... 220.0
    static let pulseRange = 30.0 ... 150.0

    var svg: String {
        let times = readings.map(\.time)
        let start = times.min() ?? Date(), end = max(times.max() ?? Date(), start.addingTimeInterval(3600))
        let plotWidth = Self.width - Self.left - Self.right
        func x(_ date: Date) -> Double { Self.left + plotWidth * date.timeIntervalSince(start) / end.timeIntervalSince(start) }
        func y(_ value: Double, _ range: ClosedRange<Double>, top: Double, height: Double) -> Double {
            let clamped = min(max(value, range.lowerBound), range.upperBound)
            return top + height * (range.upperBound - clamped) / (range.upperBound - range.lowerBound)
        }
        func pressureY(_ value: Double) -> Double { y(value, Self.pressureRange, top: Self.pressureTop, height: Self.pressureHeight) }
        func pulseY(_ value: Double) -> Double { y(value, Self.pulseRange, top: Self.pulseTop, height: Self.pulseHeight) }
        /// A coordinate to a tenth of a point.
        func number(_ value: Double) -> String {
            let tenths = Int((value * 10).rounded())
            return (tenths < 0 ? "-" : "") + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
        }

        var out = #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(Int(Self.width)) \#(Int(Self.height))" role="img" aria-label="Blood pressure and pulse over time">"#
        // Home thresholds (docs/report.md): systolic ≥ 135 and diastolic ≥ 85 shaded.
        out += #"<rect class="band" x="\#(Self.left)" y="\#(number(pressureY(220)))" width="\#(plotWidth)" height="\#(number(pressureY(135) - pressureY(220)))"/>"#
        out += #"<line class="threshold" x1="\#(Self.left)" x2="\#(Self.width - Self.right)" y1="\#(number(pressureY(135)))" y2="\#(number(pressureY(135)))"/>"#
        out += #"<line class="threshold dia" x1="\#(Self.left)" x2="\#(Self.width - Self.right)" y1="\#(number(pressureY(85)))" y2="\#(number(pressureY(85)))"/>"#
        for tick in stride(from: 60.0, through: 200, by: 20) {
            out += #"<text class="axis" x="\#(Self.left - 4)" y="\#(number(pressureY(tick) + 3))">\#(Int(tick))</text>"#
        }
        for tick in stride(from: 40.0, through: 140, by: 20) {
            out += #"<text class="axis" x="\#(Self.left - 4)" y="\#(number(pulseY(tick) + 3))">\#(Int(tick))</text>"#
        }
        out += #"<text class="label" x="\#(Self.left)" y="\#(Self.pulseTop - 6)">pulse (/min)</text>"#
        out += #"<text class="label" x="\#(Self.left + 4)" y="\#(Self.pressureTop + 10)">mmHg</text>"#
        for (label, anchor) in [(start, "start"), (end, "end")] {
            out += #"<text class="axis time \#(anchor)" x="\#(number(x(label)))" y="\#(Self.height - 4)">\#(ReportPage.day(label, zone))</text>"#
        }
        for reading in readings {
            let kind = reading.timeOfDay(in: zone).rawValue
            let cx = number(x(reading.time))
            for (series, value) in [("sys", reading.systolic), ("dia", reading.diastolic)] {
                out += Self.mark(series: series, kind: kind, x: cx, y: number(pressureY(value)))
            }
            if let pulse = reading.pulse { out += Self.mark(series: "pulse", kind: kind, x: cx, y: number(pulseY(pulse))) }
        }
        return out + "</svg>"
    }

    /// A filled circle in the morning, a hollow one in the evening, a square otherwise.
    private static func mark(series: String, kind: String, x: String, y: String) -> String {
        kind == "other"
            ? #"<rect class="reading-\#(series) \#(kind)" x="\#(x)" y="\#(y)" width="5" height="5" transform="translate(-2.5 -2.5)"/>"#
            : #"<circle class="reading-\#(series) \#(kind)" cx="\#(x)" cy="\#(y)" r="3"/>"#
    }
}
