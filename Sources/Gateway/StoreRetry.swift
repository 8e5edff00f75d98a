/// How a session tries again while the store refuses readings (a full disk, a busy or unwritable file):
/// after `first`, then twice as long each time up to `maximum` (docs/gateway.md, "When the store refuses").
public struct StoreRetry: Sendable {
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
