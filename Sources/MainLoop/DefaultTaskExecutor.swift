@_spi(ExperimentalScheduling) import _Concurrency

/// The executor of tasks not on an actor, once `MainLoopExecutorFactory` makes it the default: its jobs
/// join `MainLoop`'s queue and run on the loop's thread.
package final class DefaultTaskExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    private let queue: JobQueue<MainLoop.Entry>

    init(queue: JobQueue<MainLoop.Entry>) {
        self.queue = queue
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        queue.append(MainLoop.Entry(job: UnownedJob(job), isMainActor: false))
    }

    package func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        queue.append(MainLoop.Entry(job: UnownedJob(job), isMainActor: false), after: MainLoop.duration(delay))
    }
}
