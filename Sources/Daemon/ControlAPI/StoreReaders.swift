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
/// of their own, each on a reader connection of its own (HealthStore's WAL pool), in arrival order, at a lower CPU
/// priority than the loop, so that a cuff's reading is committed whatever clients ask meanwhile.
///
/// One caller (a uid) has at most ``perCaller`` reads waiting or running; the next is refused at once
/// (``ControlError/tooManyReads(uid:limit:)``), so that no client, however many connections it opens, queues more
/// than that in front of the others.
public final class StoreReaders: Sendable {
    /// Reads one uid may have waiting or running at once.
    public let perCaller: Int
    /// Threads reading at once: fewer than the store's reader connections (GRDB's pool has five), so that the
    /// loop's own short reads (grants) never wait for one.
    public let threads: Int
    /// The niceness of the reading threads (setpriority(2)): the loop, at 0, gets the CPU first.
    static let niceness: Int32 = 10

    private struct Admission {
        var inFlight: [UInt32: Int] = [:]
        var started = 0
    }

    private let admission = Mutex(Admission())
    private let jobs = ReadJobs()

    /// `threads` reading threads, at most `perCaller` reads per uid waiting or running.
    public init(threads: Int = 2, perCaller: Int = 4) {
        self.threads = threads
        self.perCaller = perCaller
    }

    deinit {
        for _ in 0 ..< admission.withLock({ $0.started }) { jobs.append(nil) }
    }

    /// Reads `store` for `client` with `body` (docs/dbus-api.md, "Reads"). A client that sees nothing of `types` —
    /// no grant to read them, nothing written (``HealthStoring/seesAny(of:as:)``) — is answered at once, on the
    /// calling thread, by the store from its grants alone, without reading any data; any other's read runs on a
    /// reading thread, within the limit of its uid. No await comes between the check and that answer, so a grant
    /// given meanwhile cannot make it a read of the data on the loop.
    func read<T: Sendable>(_ types: Set<HealthObjectType>, in store: any HealthStoring, as client: HealthClient, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let answer = { @Sendable in try ControlAPI.storeCall(body) }
        guard try ControlAPI.storeCall({ try store.seesAny(of: types, as: client) }) else { return try answer() }
        return try await run(for: client.uid, answer)
    }

    /// Runs `body` on a reading thread for `uid` and returns what it returned; refused with
    /// ``ControlError/tooManyReads(uid:limit:)`` while `uid` has ``perCaller`` reads waiting or running.
    func run<T: Sendable>(for uid: UInt32, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        let (admitted, startThread) = admission.withLock { state -> (Bool, Bool) in
            guard state.inFlight[uid, default: 0] < perCaller else { return (false, false) }
            state.inFlight[uid, default: 0] += 1
            let start = state.started < threads
            if start { state.started += 1 }
            return (true, start)
        }
        guard admitted else { throw ControlError.tooManyReads(uid: uid, limit: perCaller) }
        defer {
            admission.withLock { state in
                let left = state.inFlight[uid, default: 1] - 1
                state.inFlight[uid] = left > 0 ? left : nil
            }
        }
        // Started on first use: a cuffd nobody reads from has none.
        if startThread { Thread { [jobs] in jobs.work(niceness: Self.niceness) }.start() }
        return try await withCheckedThrowingContinuation { continuation in
            jobs.append { continuation.resume(with: Result { try body() }) }
        }
    }
}

/// Jobs for the reading threads, first in first out; a nil job ends the thread that takes it.
private final class ReadJobs: Sendable {
    private let jobs = Mutex<[(@Sendable () -> Void)?]>([])
    /// One signal per job queued; the threads wait on it.
    private let queued = DispatchSemaphore(value: 0)

    func append(_ job: (@Sendable () -> Void)?) {
        jobs.withLock { $0.append(job) }
        queued.signal()
    }

    /// A reading thread: lowers its own priority, then runs jobs until a nil one.
    func work(niceness: Int32) {
        // With PRIO_PROCESS and 0, Linux changes the calling thread only (setpriority(2), "Notes").
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        while true {
            queued.wait()
            guard let job = jobs.withLock({ $0.removeFirst() }) else { return }
            job()
        }
    }
}
