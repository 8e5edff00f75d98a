import FoundationEssentials

/// A session's heart-rate samples on their way to the store (docs/gateway.md, "Heart rate"): a sensor sends
/// about one value a second for hours, so values are committed together — at most ``window`` after the first of
/// a batch arrived, and when the link goes down — and summarized for the journal once a minute.
///
/// Invariants: ``waiting`` holds samples not yet committed, oldest first, at most ``limit`` (the oldest give way);
/// one commit runs at a time (``isCommitting``), and a commit removes from the front only the samples it took;
/// ``timer`` is set exactly while a commit is scheduled.
struct HeartRateBatch {
    /// The longest a received value waits before its commit starts.
    let window: Duration
    /// How many values may wait while the store refuses (then the oldest are dropped, and counted).
    let limit: Int
    private(set) var waiting: [HeartRateSample] = []
    var isCommitting = false
    var timer: Task<Void, Never>?
    /// Failed commits in a row; 0 while the store takes them.
    var failures = 0
    /// Values dropped since the store began refusing.
    private(set) var dropped = 0
    /// The journal's summary of the values committed since it was last written.
    private var summary: HeartRateSummary?
    /// How long a summary covers before it is written.
    static let summaryInterval: TimeInterval = 60
    /// A batch this large is committed without waiting for the window (values replayed, or sent faster than
    /// a sensor sends them): one transaction stays small, and nothing waits to be dropped.
    static let fullBatch = 1000

    init(window: Duration, limit: Int) {
        self.window = window
        self.limit = limit
    }

    mutating func append(_ sample: HeartRateSample) {
        waiting.append(sample)
        if waiting.count > limit {
            waiting.removeFirst(waiting.count - limit)
            dropped += 1
        }
    }

    /// The batch a commit takes: everything waiting now.
    var next: [HeartRateSample] { waiting }

    /// `committed` (the front of ``waiting``) went in; returns the summary that is due, if a minute is full.
    mutating func committed(_ committed: [HeartRateSample]) -> HeartRateSummary? {
        waiting.removeFirst(min(committed.count, waiting.count))
        failures = 0
        dropped = 0
        guard let first = committed.first else { return nil }
        var summary = summary ?? HeartRateSummary(start: first.receivedAt)
        for sample in committed { summary.add(sample) }
        guard summary.end.timeIntervalSince(summary.start) >= Self.summaryInterval else {
            self.summary = summary
            return nil
        }
        self.summary = nil
        return summary
    }

    /// The summary of what was committed since the last one, ending it (the link went down).
    mutating func finishSummary() -> HeartRateSummary? {
        defer { summary = nil }
        return summary
    }
}
