import Foundation
import GATTHealth

/// A cuff's own clock, served on Current Time 0x2A2B (docs/reference/GATT-HEALTH.md §10): a wall clock without a zone
/// that runs on from the time it was started or last set. It is kept as that wall-clock time read as UTC,
/// so running it on needs no zone and no daylight-saving rules.
struct CuffClock: Sendable {
    private static let wallClock: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// What the clock showed at `setAt`.
    private var shown: Date
    private var setAt: ContinuousClock.Instant
    /// The Adjust Reason of the last write; none before one.
    private var adjustReason: CurrentTime.AdjustReason = []

    /// A clock that shows `time` at `instant`; `time` must be a known calendar time.
    init(showing time: DateTime, at instant: ContinuousClock.Instant = .now) {
        shown = time.date(in: Self.wallClock) ?? Date(timeIntervalSince1970: 0)
        setAt = instant
    }

    /// A clock that shows this machine's local time now, as cuff-sim's cuffs did before clocks were scripted.
    static func local() -> CuffClock {
        CuffClock(showing: DateTime(Date()))
    }

    /// The Current Time value at `instant`: date and time, ISO day of week, 1/256 s, last Adjust Reason.
    func currentTime(at instant: ContinuousClock.Instant = .now) -> CurrentTime {
        let elapsed = (instant - setAt) / .seconds(1)
        let seconds = shown.timeIntervalSince1970 + elapsed
        let whole = seconds.rounded(.down)
        var value = CurrentTime(
            dateTime: DateTime(Date(timeIntervalSince1970: whole), calendar: Self.wallClock), adjustReason: adjustReason)
        value.fractions256 = UInt8(min(255, ((seconds - whole) * 256).rounded(.down)))
        return value
    }

    /// Sets the clock from a written Current Time, the way a CTS server checks it: 10 bytes (else ATT
    /// "Invalid Attribute Value Length"), a known calendar time and a day of week 0–7 (else ATT "Value Not
    /// Allowed").
    mutating func set(_ bytes: [UInt8], at instant: ContinuousClock.Instant = .now) throws(ATTError) {
        guard bytes.count == CurrentTime.encodedLength else { throw .invalidAttributeValueLength }
        guard let value = try? CurrentTime(decoding: bytes), value.dayOfWeek <= 7,
              let time = value.dateTime.date(in: Self.wallClock) else { throw .valueNotAllowed }
        shown = time.addingTimeInterval(Double(value.fractions256) / 256)
        setAt = instant
        adjustReason = value.adjustReason
    }

    /// Sets the clock from a written Date Time 0x2A08 (A&D, docs/reference/GATT-HEALTH.md §13.8): 7 bytes (else
    /// "Invalid Attribute Value Length") of a known calendar time (else "Value Not Allowed").
    mutating func set(dateTime bytes: [UInt8], at instant: ContinuousClock.Instant = .now) throws(ATTError) {
        guard bytes.count == DateTime.encodedLength else { throw .invalidAttributeValueLength }
        guard let value = try? DateTime(decoding: bytes), let time = value.date(in: Self.wallClock) else { throw .valueNotAllowed }
        shown = time
        setAt = instant
        adjustReason = .manualTimeUpdate
    }
}
