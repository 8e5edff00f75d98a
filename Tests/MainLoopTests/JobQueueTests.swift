import Foundation
import Testing
@testable import MainLoop

@Suite("MainLoop's job queue")
struct JobQueueTests {
    @Test func readyJobsComeOutInArrivalOrderInOneBatch() {
        let queue = JobQueue<Int>()
        for job in 1...5 { queue.append(job) }
        #expect(queue.nextBatch().map(Array.init) == [1, 2, 3, 4, 5])
    }

    @Test func delayedJobsComeOutByDeadlineThenByArrival() {
        let queue = JobQueue<String>()
        // The deadlines from one instant: with `after:` each append reads the clock anew, and a thread kept off the
        // CPU for 40 ms between two appends would give "early" the later deadline.
        let start = MonotonicTime.now
        queue.append("late", at: start.advanced(by: .milliseconds(60)))
        queue.append("early", at: start.advanced(by: .milliseconds(20)))
        queue.append("early too", at: start.advanced(by: .milliseconds(20)))
        var order: [String] = []
        while order.count < 3, let batch = queue.nextBatch() {
            order += batch
        }
        #expect(order == ["early", "early too", "late"])
        // Not before its deadline: the queue waited at least the longest delay.
        #expect(MonotonicTime.now.nanoseconds - start.nanoseconds >= 60_000_000)
    }

    @Test func aJobReadyNowIsNotHeldBehindADelayedOne() {
        let queue = JobQueue<String>()
        queue.append("in an hour", after: .seconds(3600))
        queue.append("now")
        #expect(queue.nextBatch().map(Array.init) == ["now"])
    }

    @Test func aJobFromAnotherThreadWakesTheWaitingLoop() async {
        let queue = JobQueue<Int>()
        let producer = Thread { queue.append(42) }
        let batch = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: queue.nextBatch().map(Array.init)) }.start()
            producer.start()
        }
        #expect(batch == [42])
    }

    @Test func stopEndsAWaitAndTheNextOneStartsAfresh() async {
        let queue = JobQueue<Int>()
        let stopped = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: queue.nextBatch() == nil) }.start()
            Thread { queue.stop() }.start()
        }
        #expect(stopped)
        queue.append(7)
        #expect(queue.nextBatch().map(Array.init) == [7])
    }
}

@Suite("MainLoop's monotonic time")
struct MonotonicTimeTests {
    @Test func advancesByWholeAndFractionalSeconds() {
        let time = MonotonicTime(nanoseconds: 5)
        #expect(time.advanced(by: .seconds(2) + .nanoseconds(7)).nanoseconds == 2_000_000_012)
        #expect(time.advanced(by: .microseconds(1)).nanoseconds == 1_005)
    }

    @Test func aNegativeDelayIsNone() {
        #expect(MonotonicTime(nanoseconds: 100).advanced(by: .seconds(-1)).nanoseconds == 100)
        #expect(MonotonicTime(nanoseconds: 100).advanced(by: .nanoseconds(-1)).nanoseconds == 100)
    }

    @Test func aDeadlinePastTheClocksRangeIsItsEnd() {
        #expect(MonotonicTime(nanoseconds: 1).advanced(by: .seconds(Int64.max)).nanoseconds == .max)
        #expect(MonotonicTime(nanoseconds: .max - 1).advanced(by: .seconds(1)).nanoseconds == .max)
    }

    @Test func splitsIntoATimespec() {
        let time = MonotonicTime(nanoseconds: 3_000_000_123).timespec
        #expect(time.tv_sec == 3 && time.tv_nsec == 123)
    }
}
