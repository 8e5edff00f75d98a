import Dispatch
import Foundation
import HealthStore
import ReadingQueries
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The threads the control API reads the store on (docs/dbus-api.md, "Reads"): cuffd's main loop runs the Gateway,
/// every commit and every D-Bus call (docs/architecture.md, "One thread for Swift concurrency"), so a read that ran
/// there — statistics over a million readings, a page of a thousand — held all of them up. Here reads run on threads
/// of their own, each on a reader connection of its own (HealthStore's WAL pool), each uid's in arrival order and the
/// uids in turn (``ReadJobs``), at a lower CPU priority than the loop, so that a cuff's reading is committed whatever
/// clients ask meanwhile. How many reads a uid may have waiting, and when they start, ``ReadAdmission`` decides.
public final class StoreReaders: Sendable {
    /// Threads reading at once: fewer than the store's reader connections (GRDB's pool has five), so that the
    /// loop's own short reads (grants) never wait for one.
    public let threads: Int
    /// The niceness of the reading threads (setpriority(2)): the loop, at 0, gets the CPU first.
    static let niceness: Int32 = 10

    private let started = Mutex(0)
    private let jobs = ReadJobs()

    /// `threads` reading threads.
    public init(threads: Int = 2) {
        self.threads = threads
    }

    deinit {
        for _ in 0 ..< started.withLock({ $0 }) { jobs.stop() }
    }

    /// Reads `store` for `client` with `body` (docs/dbus-api.md, "Reads"). A client that sees nothing of `types` —
    /// no grant to read them, nothing written (``HealthStoring/seesAny(of:as:)``) — is answered at once, on the
    /// calling thread, by the store from its grants alone, without reading any data; any other's read runs on a
    /// reading thread. No await comes between the check and that answer, so a grant given meanwhile cannot make it a
    /// read of the data on the loop.
    func read<T: Sendable>(_ types: Set<HealthObjectType>, in store: any HealthStoring, as client: HealthClient, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let answer = { @Sendable in try ControlAPI.storeCall(body) }
        guard try ControlAPI.storeCall({ try store.seesAny(of: types, as: client) }) else { return try answer() }
        return try await run(for: client.uid, answer)
    }

    /// Runs `body` on a reading thread for `uid` and returns what it returned.
    func run<T: Sendable>(for uid: UInt32, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        // Started on first use: a cuffd nobody reads from has none.
        let startThread = started.withLock { count in
            guard count < threads else { return false }
            count += 1
            return true
        }
        if startThread { Thread { [jobs] in jobs.work(niceness: Self.niceness) }.start() }
        return try await withCheckedThrowingContinuation { continuation in
            jobs.append({ continuation.resume(with: Result { try body() }) }, for: uid)
        }
    }
}

/// Jobs for the reading threads, taken in callers' turns (``CallerTurns``), so that a caller's read waits for at most
/// one read of each other caller (at most ``ReadAdmission/Limits-swift.struct/perCaller`` of a caller wait at once), not for every read queued before it: with twenty
/// uids hammering, an administrator's `Statistics` waited for some eighty reads in arrival order (seconds), and
/// waits for about twenty in turn. A stop ends the thread that takes it once no job waits.
final class ReadJobs: Sendable {
    private struct Queues {
        var jobs = CallerTurns<@Sendable () -> Void>()
        var stops = 0
    }

    private let queues = Mutex(Queues())
    /// One signal per job or stop queued; the threads wait on it.
    private let queued = DispatchSemaphore(value: 0)

    func append(_ job: @escaping @Sendable () -> Void, for uid: UInt32) {
        queues.withLock { queues in
            queues.jobs.append(job, for: uid)
        }
        queued.signal()
    }

    func stop() {
        queues.withLock { $0.stops += 1 }
        queued.signal()
    }

    /// A reading thread: lowers its own priority, then runs jobs until a stop.
    func work(niceness: Int32) {
        // With PRIO_PROCESS and 0, Linux changes the calling thread only (setpriority(2), "Notes").
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        while true {
            queued.wait()
            let job = queues.withLock { queues -> (@Sendable () -> Void)? in
                if let job = queues.jobs.next() { return job }
                queues.stops -= 1
                return nil
            }
            guard let job else { return }
            job()
        }
    }
}
