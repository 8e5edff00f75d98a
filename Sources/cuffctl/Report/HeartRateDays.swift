import Foundation

/// Heart-rate sensors' samples of a report, day by day (docs/report.md): how many values, the lowest, mean and
/// highest of those with skin contact, and how many came without (left out of the figures).
struct HeartRateDays {
    struct Day {
        let date: String
        var count = 0
        var withoutContact = 0
        var minimum = Double.infinity
        var maximum = -Double.infinity
        var total = 0.0

        var mean: Double? { count > withoutContact ? total / Double(count - withoutContact) : nil }
    }

    let days: [Day]

    init(_ samples: [HeartRateOutput], zone: TimeZone) {
        var byDay: [Int: Day] = [:]
        for sample in samples {
            guard let time = sample.sample.time, let rate = sample.sample.double("heartRate") else { continue }
            let clock = WallClock(time, in: zone)
            var day = byDay[clock.dayNumber] ?? Day(date: clock.date)
            day.count += 1
            if sample.lacksContact {
                day.withoutContact += 1
            } else {
                day.minimum = min(day.minimum, rate)
                day.maximum = max(day.maximum, rate)
                day.total += rate
            }
            byDay[clock.dayNumber] = day
        }
        days = byDay.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The table, or nothing when there are no samples.
    var html: String {
        guard !days.isEmpty else { return "" }
        var html = "<h2>Heart rate (from a heart-rate sensor)</h2><table class=\"readings\"><thead><tr><th>Date</th><th>Values</th>"
        html += "<th>Lowest</th><th>Mean</th><th>Highest</th><th>Without skin contact</th></tr></thead><tbody>"
        for day in days {
            let figures = day.mean.map { mean in [day.minimum, mean, day.maximum].map { ReadingOutput.whole($0) + "/min" } } ?? ["", "", ""]
            html += "<tr><td>\(day.date)</td><td>\(day.count)</td>" + figures.map { "<td>\($0)</td>" }.joined()
            html += "<td>\(day.withoutContact > 0 ? "\(day.withoutContact) (not in the figures)" : "")</td></tr>"
        }
        return html + "</tbody></table>"
    }
}
