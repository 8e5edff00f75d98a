import Dispatch
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
/// bounded.
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

        public init(rate: Double = 50, burst: Int = 10, running: Int = 2, perCaller: Int = 16) {
            self.rate = rate
            self.burst = burst
            self.running = running
            self.perCaller = perCaller
        }
    }

    public let limits: Limits
    private let state: Mutex<Queue>

    public init(_ limits: Limits = Limits()) {
        self.limits = limits
        state = Mutex(Queue(tokens: Double(limits.burst), refilledAt: DispatchTime.now().uptimeNanoseconds))
    }

    /// Paced reads waiting to start, all uids together.
    var waiting: Int {
        state.withLock { $0.waiting.values.reduce(0) { $0 + $1.count } }
    }

    /// Runs `body` once `uid`'s read may start — at once when not `paced` —, counted against `uid`'s bound until it
    /// returns; refused with ``ControlError/tooManyReads(uid:limit:)`` while `uid` has ``Limits/perCaller`` reads
    /// waiting or running.
    public func admit<T: Sendable>(_ uid: UInt32, paced: Bool, _ body: () async throws -> T) async throws -> T {
        let admitted = state.withLock { queue in
            guard queue.held[uid, default: 0] < limits.perCaller else { return false }
            queue.held[uid, default: 0] += 1
            return true
        }
        guard admitted else { throw ControlError.tooManyReads(uid: uid, limit: limits.perCaller) }
        defer { finish(uid, paced: paced) }
        if paced {
            await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
                release { $0.wait(turn, for: uid) }
            }
        }
        return try await body()
    }

    private func finish(_ uid: UInt32, paced: Bool) {
        release { queue in
            let left = queue.held[uid, default: 1] - 1
            queue.held[uid] = left > 0 ? left : nil
            if paced { queue.running -= 1 }
        }
    }

    /// Changes the queue with `change`, then starts the waiting reads the pace and ``Limits/running`` allow now, and
    /// sets a timer for the next one when only the pace holds it back.
    private func release(after change: (inout Queue) -> Void) {
        let (turns, wakeIn) = state.withLock { queue -> ([CheckedContinuation<Void, Never>], UInt64?) in
            change(&queue)
            return queue.release(now: DispatchTime.now().uptimeNanoseconds, limits)
        }
        for turn in turns { turn.resume() }
        if let wakeIn {
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(wakeIn))) { [self] in
                release { $0.timerSet = false }
            }
        }
    }

    /// The paced reads waiting, each uid's in arrival order, and the token bucket that paces them.
    private struct Queue {
        var tokens: Double
        var refilledAt: UInt64
        var waiting: [UInt32: [CheckedContinuation<Void, Never>]] = [:]
        /// The uids with reads waiting, the next to start first.
        var turn: [UInt32] = []
        /// Reads waiting or running, by uid.
        var held: [UInt32: Int] = [:]
        /// Paced reads running.
        var running = 0
        var timerSet = false

        mutating func wait(_ continuation: CheckedContinuation<Void, Never>, for uid: UInt32) {
            if waiting[uid] == nil { turn.append(uid) }
            waiting[uid, default: []].append(continuation)
        }

        /// The reads to start now, and in how many nanoseconds to look again if a read waits for the pace alone and
        /// no timer is set.
        mutating func release(now: UInt64, _ limits: Limits) -> ([CheckedContinuation<Void, Never>], UInt64?) {
            tokens = min(Double(limits.burst), tokens + Double(now - refilledAt) / 1e9 * limits.rate)
            refilledAt = now
            var started: [CheckedContinuation<Void, Never>] = []
            while !turn.isEmpty, running < limits.running, tokens >= 1 {
                let uid = turn.removeFirst()
                var reads = waiting[uid]!
                started.append(reads.removeFirst())
                if reads.isEmpty {
                    waiting[uid] = nil
                } else {
                    waiting[uid] = reads
                    turn.append(uid)
                }
                tokens -= 1
                running += 1
            }
            guard !turn.isEmpty, running < limits.running, !timerSet else { return (started, nil) }
            timerSet = true
            return (started, UInt64((1 - tokens) / limits.rate * 1e9) + 1)
        }
    }
}
