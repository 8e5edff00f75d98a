import Glibc

/// A point on CLOCK_MONOTONIC in nanoseconds: the clock `JobQueue`'s condition variable waits on.
struct MonotonicTime: Comparable {
    var nanoseconds: UInt64

    static var now: MonotonicTime {
        var time = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicTime(nanoseconds: UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec))
    }

    /// `self + duration`: a negative duration is none, and a sum past the clock's range is its end.
    func advanced(by duration: Duration) -> MonotonicTime {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return self }
        let (whole, wholeOverflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (delay, delayOverflow) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        let (sum, sumOverflow) = nanoseconds.addingReportingOverflow(delay)
        return MonotonicTime(nanoseconds: wholeOverflow || delayOverflow || sumOverflow ? .max : sum)
    }

    var timespec: Glibc.timespec {
        Glibc.timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    }

    static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
