/// The waits between attempts to reach a server that does not answer: doubling from `first` up to `longest`,
/// so that a server coming back is found within `longest`, and a server down for hours is asked only that often.
struct Backoff: Sendable {
    let first: Duration
    let longest: Duration
    private(set) var next: Duration

    init(first: Duration = .milliseconds(500), longest: Duration = .seconds(30)) {
        self.first = first
        self.longest = longest
        next = first
    }

    /// The wait before the next attempt; each call doubles the one after.
    mutating func delay() -> Duration {
        defer { next = min(next * 2, longest) }
        return next
    }

    /// After a success: the next failure waits `first` again.
    mutating func reset() { next = first }
}
