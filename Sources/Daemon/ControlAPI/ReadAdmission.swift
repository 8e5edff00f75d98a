import ReadingQueries
import Synchronization

/// When a caller's read of the store starts (docs/dbus-api.md, "Reads"). Every call and every reply crosses
/// dbus-daemon, as a cuff's indication does on its way to a commit: forty clients each re-sending a refused call at
/// once, or asking again as soon as a cheap answer came, made hundreds of messages a second and stalled the bus's own
/// round trip for tens of milliseconds (Benchmarks/RESULTS.md, "Reads beside commits"). So a caller who is not an
/// administrator is paced, not refused: its call waits, unanswered, until the non-administrators' reads together are
/// within ``Limits/rate`` a second (``Limits/burst`` after a pause) and ``Limits/running`` at once, each uid's in the
/// order they came and the uids in turn — a caller waits for one call of each other waiting uid, not for all queued
/// before it. A client with calls in flight then sends its next only when one is answered. Administrators' reads are
/// not paced; every uid, administrators too, has at most ``Limits/perCaller`` reads waiting or running, and the next
/// is refused at once (``ControlError/tooManyReads(uid:limit:)``), so that the waiting calls, and what they hold, stay
/// bounded; a read that waited ``Limits/maximumWait`` is refused too, so that a client gets an answer before its call
/// times out (under a heavy load, 320 calls waiting, some waited past libdbus's 25 s: Benchmarks/RESULTS.md, "Paced
/// and served in turn").
public final class ReadAdmission: Sendable {
    /// The pace and the bounds (docs/dbus-api.md, "Reads").
    public struct Limits: Sendable {
        /// Non-administrators' reads started a second, all uids together.
        public var rate: Double
        /// Non-administrators' reads that may start together after a pause.
        public var burst: Int
        /// Non-administrators' reads running at once: no more than the reading threads (``StoreReaders/threads``), so
        /// that an administrator's read waits for one of theirs at most.
        public var running: Int
        /// Reads one uid may have waiting or running.
        public var perCaller: Int
        /// Seconds a paced read may wait; one that waited longer is refused when the queue next moves (a read ends,
        /// another comes, the pace allows one) with `LimitsExceeded` (``ControlError/waitedTooLong(uid:seconds:)``)
        /// rather than left to libdbus's call timeout of 25 s, which a client would see as no reply at all.
        public var maximumWait: Double

        public init(rate: Double = 50, burst: Int = 10, running: Int = 2, perCaller: Int = 16, maximumWait: Double = 10) {
            self.rate = rate
            self.burst = burst
            self.running = running
            self.perCaller = perCaller
            self.maximumWait = maximumWait
        }
    }

    public let limits: Limits
    private let state: Mutex<Queue>
    /// Nanoseconds since the admission was made, on its clock.
    private let elapsed: @Sendable () -> UInt64
    /// Sleeps for a number of nanoseconds on the same clock: the pace's timer.
    private let sleep: @Sendable (UInt64) async -> Void

    /// Paces on `clock`: the daemon's is the continuous clock; a test's moves only when the test moves it, so that the
    /// pace and ``Limits/maximumWait`` are measured in the time the test sets rather than in how long a loaded machine
    /// took (docs/gateway.md, "Seams").
    public init(_ limits: Limits = Limits(), clock: any Clock<Duration> = ContinuousClock()) {
        self.limits = limits
        (elapsed, sleep) = Self.stopwatch(clock)
        state = Mutex(Queue(tokens: Double(limits.burst), refilledAt: 0))
    }

    private static func stopwatch<C: Clock<Duration>>(
        _ clock: C
    ) -> (@Sendable () -> UInt64, @Sendable (UInt64) async -> Void) {
        let start = clock.now
        let elapsed: @Sendable () -> UInt64 = {
            let (seconds, attoseconds) = start.duration(to: clock.now).components
            return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        }
        return (elapsed, { try? await clock.sleep(for: .nanoseconds($0)) })
    }

    /// Paced reads waiting to start, all uids together.
    var waiting: Int {
        state.withLock { $0.waiting.count }
    }

    /// Runs `body` once `uid`'s read may start — at once when not `paced` —, counted against `uid`'s bound until it
    /// returns; refused with ``ControlError/tooManyReads(uid:limit:)`` while `uid` has ``Limits/perCaller`` reads
    /// waiting or running, and with ``ControlError/waitedTooLong(uid:seconds:)`` once it has waited
    /// ``Limits/maximumWait``.
    public func admit<T: Sendable>(_ uid: UInt32, paced: Bool, _ body: () async throws -> T) async throws -> T {
        let admitted = state.withLock { queue in
            guard queue.held[uid, default: 0] < limits.perCaller else { return false }
            queue.held[uid, default: 0] += 1
            return true
        }
        guard admitted else { throw ControlError.tooManyReads(uid: uid, limit: limits.perCaller) }
        var started = true
        defer { finish(uid, running: paced && started) }
        if paced {
            started = await withCheckedContinuation { (turn: CheckedContinuation<Bool, Never>) in
                release { [elapsed] in $0.wait(turn, for: uid, since: elapsed()) }
            }
            guard started else { throw ControlError.waitedTooLong(uid: uid, seconds: limits.maximumWait) }
        }
        return try await body()
    }

    private func finish(_ uid: UInt32, running: Bool) {
        release { queue in
            let left = queue.held[uid, default: 1] - 1
            queue.held[uid] = left > 0 ? left : nil
            if running { queue.running -= 1 }
        }
    }

    /// Changes the queue with `change`, then starts the waiting reads the pace and ``Limits/running`` allow now, and
    /// sets a timer for the next one when only the pace holds it back.
    private func release(after change: (inout Queue) -> Void) {
        let (turns, wakeIn) = state.withLock { queue -> ([(Turn, Bool)], UInt64?) in
            change(&queue)
            return queue.release(now: elapsed(), limits)
        }
        for (turn, starts) in turns { turn.continuation.resume(returning: starts) }
        if let wakeIn {
            Task.detached { [self] in
                await sleep(wakeIn)
                release { $0.timerSet = false }
            }
        }
    }

    /// A paced read waiting: resumed with true when it starts, false when it waited too long.
    private struct Turn {
        var continuation: CheckedContinuation<Bool, Never>
        var since: UInt64
    }

    /// The paced reads waiting, each uid's in arrival order, and the token bucket that paces them.
    private struct Queue {
        var tokens: Double
        var refilledAt: UInt64
        var waiting = CallerTurns<Turn>()
        /// Reads waiting or running, by uid.
        var held: [UInt32: Int] = [:]
        /// Paced reads running.
        var running = 0
        var timerSet = false

        mutating func wait(_ continuation: CheckedContinuation<Bool, Never>, for uid: UInt32, since: UInt64) {
            waiting.append(Turn(continuation: continuation, since: since), for: uid)
        }

        /// The reads to resume now — true to start, false for one left waiting that waited ``Limits/maximumWait`` —, and
        /// in how many nanoseconds to look again if a read waits for the pace alone and no timer is set.
        mutating func release(now: UInt64, _ limits: Limits) -> ([(Turn, Bool)], UInt64?) {
            tokens = min(Double(limits.burst), tokens + Double(now - refilledAt) / 1e9 * limits.rate)
            refilledAt = now
            var resumed: [(Turn, Bool)] = []
            while running < limits.running, tokens >= 1, let next = waiting.next() {
                resumed.append((next, true))
                tokens -= 1
                running += 1
            }
            // Of the reads left waiting, each uid's oldest wait longest: those that waited too long are refused.
            let longest = UInt64(limits.maximumWait * 1e9)
            resumed += waiting.removeLeading { $0.since + longest <= now }.map { ($0, false) }
            guard !waiting.isEmpty, running < limits.running, !timerSet else { return (resumed, nil) }
            timerSet = true
            return (resumed, UInt64((1 - tokens) / limits.rate * 1e9) + 1)
        }
    }
}
