import Foundation

/// The averages a home monitoring report gives (docs/report.md): the whole period, mornings and evenings apart,
/// and the ESH home protocol's average — every reading after the first day — where the data allows it.
struct HomeMonitoringSummary {
    struct Average: Equatable {
        var systolic: Double
        var diastolic: Double
        var count: Int
    }

    let all: Average?
    let mornings: Average?
    let evenings: Average?
    /// The protocol's average, or nil with ``protocolShortfall`` saying why not.
    let protocolAverage: Average?
    let protocolShortfall: String?

    /// At least this many days after the first, each with a morning and an evening reading (the protocol asks
    /// for 7, accepts 3).
    static let minimumProtocolDays = 3

    init(_ readings: [ReportReading], zone: TimeZone) {
        func average(_ readings: [ReportReading]) -> Average? {
            guard !readings.isEmpty else { return nil }
            let count = Double(readings.count)
            return Average(systolic: readings.map(\.systolic).reduce(0, +) / count, diastolic: readings.map(\.diastolic).reduce(0, +) / count, count: readings.count)
        }
        all = average(readings)
        mornings = average(readings.filter { $0.timeOfDay(in: zone) == .morning })
        evenings = average(readings.filter { $0.timeOfDay(in: zone) == .evening })
        guard let first = readings.map(\.time).min() else {
            protocolAverage = nil
            protocolShortfall = "there are no readings"
            return
        }
        let firstDay = WallClock(first, in: zone).dayNumber
        let kept = readings.filter { WallClock($0.time, in: zone).dayNumber > firstDay }
        let completeDays = Dictionary(grouping: kept) { WallClock($0.time, in: zone).dayNumber }.values.filter { day in
            day.contains { $0.timeOfDay(in: zone) == .morning } && day.contains { $0.timeOfDay(in: zone) == .evening }
        }.count
        if completeDays >= Self.minimumProtocolDays {
            protocolAverage = average(kept)
            protocolShortfall = nil
        } else {
            protocolAverage = nil
            protocolShortfall = "after the first day, \(completeDays) day\(completeDays == 1 ? " has" : "s have") both a morning and an evening reading; the protocol needs at least \(Self.minimumProtocolDays) (ideally 7, with two readings each time)"
        }
    }
}
