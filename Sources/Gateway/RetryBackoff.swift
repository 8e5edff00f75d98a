/// How the Gateway tries again after a failure: after `first`, then twice as long each time up to `maximum` — a
/// session while the store refuses readings (a full disk, a busy or unwritable file; docs/gateway.md, "When the store
/// refuses"), a pairing anew with a cuff that bonds anew on every link (docs/omron.md §6).
public struct RetryBackoff: Sendable {
    public var first: Duration
    public var maximum: Duration

    public init(first: Duration = .seconds(1), maximum: Duration = .seconds(60)) {
        self.first = first
        self.maximum = maximum
    }

    /// The wait before try number `attempt` (1, 2, …).
    public func delay(before attempt: Int) -> Duration {
        var delay = first
        for _ in 1 ..< max(1, attempt) where delay < maximum { delay *= 2 }
        return min(delay, maximum)
    }
}
