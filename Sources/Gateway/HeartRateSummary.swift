import FoundationEssentials

/// What a heart-rate sensor sent over a stretch of time — the journal's one entry per minute of streaming
/// (docs/journal.md): how many values were stored, their range and mean, and how many came without skin contact
/// (counted apart, not averaged in).
public struct HeartRateSummary: Hashable, Sendable {
    /// When the first value of the stretch arrived.
    public private(set) var start: Date
    /// When the last one arrived.
    public private(set) var end: Date
    /// Values stored, with and without contact.
    public private(set) var count = 0
    /// Values the sensor sent while reporting no skin contact.
    public private(set) var withoutContact = 0
    public private(set) var minimum: UInt16?
    public private(set) var maximum: UInt16?
    /// RR intervals received.
    public private(set) var rrIntervals = 0
    private var total = 0

    public init(start: Date) {
        self.start = start
        end = start
    }

    /// The mean of the values with contact, nil when there were none.
    public var mean: Double? { count > withoutContact ? Double(total) / Double(count - withoutContact) : nil }

    mutating func add(_ sample: HeartRateSample) {
        count += 1
        end = max(end, sample.receivedAt)
        rrIntervals += sample.rrIntervals.count
        guard !sample.lacksContact else {
            withoutContact += 1
            return
        }
        total += Int(sample.beatsPerMinute)
        minimum = min(minimum ?? sample.beatsPerMinute, sample.beatsPerMinute)
        maximum = max(maximum ?? sample.beatsPerMinute, sample.beatsPerMinute)
    }
}
