@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

/// One thread's event loop for Swift concurrency, and the main actor's executor: the jobs of the main
/// actor and of every task not on an actor (`taskExecutor`), in arrival order, and those delayed by
/// `Task.sleep` at their deadline, all run by the thread in `run()` while the process otherwise sleeps.
/// `MainLoopExecutorFactory` installs it (swift-evolution "Custom Main and Global Executors",
/// experimental in Swift 6.3 under `@_spi(ExperimentalCustomExecutors)`); the runtime's `async main`
/// then calls `run()` on the main thread.
///
/// Why cuffd has it (docs/architecture.md, "One thread for Swift concurrency"): the runtime's default
/// executors on Linux are libdispatch's global queues, and their first worker thread starts libdispatch's
/// 1 s pool-monitor timer, never cancelled (swift-corelibs-libdispatch, src/event/workqueue.c): one
/// wake-up a second for the life of an idle daemon. Like iwd's and systemd-timesyncd's single event loop,
/// one thread is enough for cuffd's work: a packet a minute and a SQLite commit.
///
/// Priorities are not used: nothing in the daemon competes for the thread.
package final class MainLoop: MainExecutor, SchedulingExecutor, @unchecked Sendable {
    /// A queued job and the executor it was enqueued on, which decides how it runs.
    struct Entry {
        var job: UnownedJob
        var isMainActor: Bool
    }

    let queue = JobQueue<Entry>()
    /// The executor of tasks not on an actor (`Task.defaultExecutor` once installed).
    package let taskExecutor: DefaultTaskExecutor

    package init() {
        taskExecutor = DefaultTaskExecutor(queue: queue)
    }

    /// Runs jobs on the calling thread until `stop()`. Blocks the asynchronous signals first, as
    /// libdispatch's `dispatch_main`, which this loop replaces, does (`AsynchronousSignals`).
    package func run() {
        AsynchronousSignals.blockOnCurrentThread()
        while let batch = queue.nextBatch() {
            for entry in batch {
                if entry.isMainActor {
                    entry.job.runSynchronously(on: asUnownedSerialExecutor())
                } else {
                    // With no actor, as the runtime's global executor runs them.
                    entry.job.runSynchronously(on: taskExecutor.asUnownedTaskExecutor())
                }
            }
        }
    }

    /// Makes `run()` return once the job it is running, if any, returns. Any thread.
    package func stop() {
        queue.stop()
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        queue.append(Entry(job: UnownedJob(job), isMainActor: true))
    }

    package func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        queue.append(Entry(job: UnownedJob(job), isMainActor: true), after: Self.duration(delay))
    }

    package var isMainExecutor: Bool { true }

    /// The loop's thread runs its jobs one at a time, so being on it is being isolated to the main actor.
    package func isIsolatingCurrentContext() -> Bool? {
        queue.isRunningThread
    }

    package func checkIsolated() {
        precondition(queue.isRunningThread, "not on the main loop's thread, so not on the main actor")
    }

    /// Every clock in the standard library measures in `Duration`; one that does not cannot be scheduled.
    static func duration<D: DurationProtocol>(_ delay: D) -> Duration {
        guard let delay = delay as? Duration else {
            preconditionFailure("MainLoop schedules delays in Duration only, not \(D.self)")
        }
        return delay
    }
}
