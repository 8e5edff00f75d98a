import Foundation

/// One reading as `cuffctl report` draws and lists it (docs/report.md): its time in the local zone, pressures in
/// mmHg, pulse, the cuff's flags, whether it was taken in the morning or the evening, and its corrections — excluded
/// (left out of every average and the chart, struck through in the list), entered by hand, arm, position, note.
struct ReportReading {
    enum TimeOfDay: String {
        /// 04:00–11:59 local time.
        case morning
        /// 16:00–23:59 local time.
        case evening
        case other
    }

    var time: Date
    var systolic: Double
    var diastolic: Double
    var pulse: Double?
    var status: UInt16
    var device: String
    var person: String?
    /// Why it is kept out of the averages (`cuffctl annotate --exclude`); nil for a reading that counts.
    var exclusionReason: String?
    /// What the page says of it beside the cuff's flags: entered by hand, the arm and position, the note.
    var remarks: [String] = []

    init?(_ reading: ReadingOutput) {
        guard let time = reading.time, let systolic = reading.double("systolic"), let diastolic = reading.double("diastolic") else { return nil }
        self.time = time
        self.systolic = systolic
        self.diastolic = diastolic
        pulse = reading.double("pulseRate")
        status = reading.status ?? 0
        let device = reading.device
        self.device = [device["manufacturer"], device["model"], device["address"]].compactMap { $0 }.joined(separator: " ")
        person = reading.string("person")
        exclusionReason = reading.string("exclusionReason")
        if reading.enteredByHand { remarks.append("entered by hand") }
        remarks += [reading.string("arm").map { $0.hasSuffix("wrist") ? $0 : "\($0) arm" }, reading.string("position"), reading.string("note")].compactMap { $0 }
    }

    init(time: Date, systolic: Double, diastolic: Double, pulse: Double? = nil, status: UInt16 = 0, device: String = "", person: String? = nil) {
        self.time = time
        self.systolic = systolic
        self.diastolic = diastolic
        self.pulse = pulse
        self.status = status
        self.device = device
        self.person = person
    }

    /// Morning and evening as home monitoring protocols ask for them, by the local hour.
    func timeOfDay(in zone: TimeZone) -> TimeOfDay {
        switch WallClock(time, in: zone).hour {
        case 4 ..< 12: .morning
        case 16 ..< 24: .evening
        default: .other
        }
    }

    /// The cuff's flags in words (Measurement Status, docs/reference/GATT-HEALTH.md §4).
    var flags: [String] {
        var flags: [String] = []
        if status & 0x0001 != 0 { flags.append("body movement") }
        if status & 0x0002 != 0 { flags.append("cuff too loose") }
        if status & 0x0004 != 0 { flags.append("irregular pulse") }
        switch status >> 3 & 0x3 {
        case 1: flags.append("pulse above range")
        case 2: flags.append("pulse below range")
        default: break
        }
        if status & 0x0020 != 0 { flags.append("improper position") }
        return flags
    }
}
