import Glibc
import Synchronization
@_spi(ExperimentalScheduling) import _Concurrency

/// A second thread for Swift concurrency beside `MainLoop`, at a lower CPU priority, for the tasks that prefer it
/// (`Task(executorPreference:)`): cuffd's control API's method calls. They run here, in arrival order, so that the
/// main loop — the Gateway, every BlueZ signal, every commit of a reading — sleeps between its own jobs and the
/// kernel runs it as soon as one comes, however many calls clients make (docs/architecture.md, "One thread for Swift
/// concurrency"). What such a task awaits on an actor runs there, on the main loop, as any actor's job does.
///
/// The thread starts with the first job; idle, it sleeps on `JobQueue`'s condition variable, as the main loop does.
package final class BackgroundLoop: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    /// The thread's niceness (setpriority(2)): above the main loop's 0, so that the kernel runs a commit first.
    package let niceness: Int32
    private let queue = JobQueue<UnownedJob>()
    private let started = Mutex(false)

    package init(niceness: Int32) {
        self.niceness = niceness
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        startIfNeeded()
        queue.append(UnownedJob(job))
    }

    package func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        startIfNeeded()
        queue.append(UnownedJob(job), after: MainLoop.duration(delay))
    }

    /// Makes the thread end once the job it is running, if any, returns. Any thread.
    package func stop() {
        queue.stop()
    }

    private func startIfNeeded() {
        guard started.withLock({ state in defer { state = true }; return !state }) else { return }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            Unmanaged<BackgroundLoop>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        precondition(created == 0, "cannot start the background loop's thread: error \(created)")
        pthread_detach(thread)
    }

    /// The thread: blocks the asynchronous signals as the main loop does (`AsynchronousSignals`: a signal left
    /// unblocked here would be delivered here, and lost to ServiceLifecycle's signalfd), lowers its own priority, then
    /// runs jobs until `stop()`.
    private func run() {
        AsynchronousSignals.blockOnCurrentThread()
        // With PRIO_PROCESS and 0, Linux changes the calling thread only (setpriority(2), "Notes").
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        while let batch = queue.nextBatch() {
            for job in batch {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }
}
