import DequeModule
import Glibc
import HeapModule

/// The jobs waiting for `MainLoop`'s thread, under one lock: those ready to run in arrival order, and
/// those delayed (by `Task.sleep`) in deadline order. The loop's thread sleeps in `nextBatch()` on a
/// condition variable, with a timeout only while a delayed job waits, so nothing wakes an idle process.
final class JobQueue<Job>: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `lock`:
    private var ready = Deque<Job>()
    private var delayed = Heap<DelayedJob<Job>>()
    private var delayedCount: UInt64 = 0
    private var stopRequested = false
    private var runningThread: pthread_t?

    init() {
        pthread_mutex_init(lock, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Deadlines are CLOCK_MONOTONIC nanoseconds (MonotonicTime), so the waits must be too.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(wake, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(wake)
        pthread_mutex_destroy(lock)
        wake.deallocate()
        lock.deallocate()
    }

    /// Queues a job behind those already ready. Any thread.
    func append(_ job: Job) {
        locked {
            ready.append(job)
            pthread_cond_signal(wake)
        }
    }

    /// Queues a job to become ready once `delay` has passed on the monotonic clock. Any thread.
    func append(_ job: Job, after delay: Duration) {
        append(job, at: MonotonicTime.now.advanced(by: delay))
    }

    /// Queues a job to become ready at `deadline` on the monotonic clock. Any thread.
    func append(_ job: Job, at deadline: MonotonicTime) {
        locked {
            delayedCount &+= 1
            delayed.insert(DelayedJob(deadline: deadline, order: delayedCount, job: job))
            pthread_cond_signal(wake)
        }
    }

    /// The jobs ready now, waiting for the first if there is none; nil once `stop()` was called.
    /// Called by the loop's thread only, which it records for `isRunningThread`.
    func nextBatch() -> Deque<Job>? {
        locked {
            runningThread = pthread_self()
            while !stopRequested {
                moveDueJobsToReady()
                if !ready.isEmpty {
                    defer { ready.removeAll(keepingCapacity: true) }
                    return ready
                }
                if let next = delayed.min {
                    var deadline = next.deadline.timespec
                    pthread_cond_timedwait(wake, lock, &deadline)
                } else {
                    pthread_cond_wait(wake, lock)
                }
            }
            stopRequested = false
            runningThread = nil
            return nil
        }
    }

    /// Makes the loop's current or next `nextBatch()` return nil. Any thread.
    func stop() {
        locked {
            stopRequested = true
            pthread_cond_signal(wake)
        }
    }

    /// Jobs waiting for their deadline.
    var waitingJobs: Int {
        locked { delayed.count }
    }

    /// Delayed jobs queued since the queue was made, those that have run included.
    var delayedJobsQueued: UInt64 {
        locked { delayedCount }
    }

    /// Whether the calling thread is the loop's, the only one that runs its jobs.
    var isRunningThread: Bool {
        locked { runningThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// With `lock` held.
    private func moveDueJobsToReady() {
        guard !delayed.isEmpty else { return }
        let now = MonotonicTime.now
        while let next = delayed.min, next.deadline <= now {
            ready.append(delayed.removeMin().job)
        }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }
}
