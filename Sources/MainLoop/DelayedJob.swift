/// A job waiting in `JobQueue` for its deadline; ordered by deadline, then by when it was queued, so
/// that jobs due at the same instant run in the order they were scheduled.
struct DelayedJob<Job>: Comparable {
    var deadline: MonotonicTime
    var order: UInt64
    var job: Job

    static func < (lhs: DelayedJob, rhs: DelayedJob) -> Bool {
        (lhs.deadline, lhs.order) < (rhs.deadline, rhs.order)
    }

    static func == (lhs: DelayedJob, rhs: DelayedJob) -> Bool {
        lhs.deadline == rhs.deadline && lhs.order == rhs.order
    }
}
