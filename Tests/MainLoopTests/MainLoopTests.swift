import DBusTestSupport
import Foundation
import Synchronization
import Testing
@testable import MainLoop

/// An actor whose jobs run on a `MainLoop`, as the main actor's do once cuffd installs the loop.
private actor LoopBound {
    let loop: MainLoop
    var calls = 0

    init(loop: MainLoop) {
        self.loop = loop
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        loop.asUnownedSerialExecutor()
    }

    func call() -> (count: Int, isolated: Bool?, thread: pthread_t) {
        calls += 1
        return (calls, loop.isIsolatingCurrentContext(), pthread_self())
    }
}

@Suite("MainLoop as executor")
struct MainLoopTests {
    /// Runs `body` with a loop running on a thread of its own, and stops it after.
    private func withRunningLoop(_ body: (MainLoop, pthread_t) async throws -> Void) async throws {
        let loop = MainLoop()
        let loopThread = Mutex<pthread_t?>(nil)
        let started = Gate(), ended = Gate()
        Thread {
            loopThread.withLock { $0 = pthread_self() }
            started.open()
            loop.run()
            ended.open()
        }.start()
        try await started.wait()
        try await body(loop, loopThread.withLock { $0! })
        loop.stop()
        try await ended.wait()
    }

    @Test func tasksPreferringTheLoopRunOnItsThread() async throws {
        try await withRunningLoop { loop, loopThread in
            let threads = await withTaskExecutorPreference(loop.taskExecutor) {
                await withTaskGroup(of: pthread_t.self) { group in
                    for _ in 0..<8 { group.addTask { pthread_self() } }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(threads.count == 8)
            #expect(threads.allSatisfy { pthread_equal($0, loopThread) != 0 })
        }
    }

    @Test func anActorOnTheLoopRunsIsolatedOnItsThread() async throws {
        try await withRunningLoop { loop, loopThread in
            let actor = LoopBound(loop: loop)
            for expected in 1...3 {
                let call = await actor.call()
                #expect(call.count == expected)
                #expect(call.isolated == true)
                #expect(pthread_equal(call.thread, loopThread) != 0)
            }
            // Here, off the loop's thread, the loop does not claim isolation.
            #expect(loop.isIsolatingCurrentContext() == false)
        }
    }

    @Test("Task.sleep on the loop waits in its deadline queue, not on a timer elsewhere, and resumes on its thread")
    func sleepGoesThroughTheDeadlineQueue() async throws {
        try await withRunningLoop { loop, loopThread in
            let clock = ContinuousClock()
            // Counted, not watched: each sleep is a delayed job queued in the loop's own queue (a sleep on a timer
            // elsewhere queues none there), however long the loop's thread is kept off the CPU meanwhile.
            let queuedBefore = loop.queue.delayedJobsQueued
            let sleeps = 3
            let (shortest, offLoop) = await Task(executorPreference: loop.taskExecutor) { () -> (shortest: Duration, offLoop: Int) in
                var (shortest, offLoop) = (Duration.seconds(60), 0)
                for _ in 0..<sleeps {
                    let asleep = clock.now
                    try? await Task.sleep(for: .milliseconds(50))  // the sleep under test
                    shortest = min(shortest, clock.now - asleep)
                    if pthread_equal(pthread_self(), loopThread) == 0 { offLoop += 1 }
                }
                return (shortest, offLoop)
            }.value
            #expect(loop.queue.delayedJobsQueued - queuedBefore == UInt64(sleeps), "the sleeps did not go through the loop's deadline queue")
            #expect(shortest >= .milliseconds(50), "a 50 ms sleep ended after \(shortest)")
            #expect(offLoop == 0, "\(offLoop) sleeps resumed off the loop's thread")
            #expect(loop.queue.waitingJobs == 0)
        }
    }

    @Test func runBlocksTheAsynchronousSignalsOnItsThread() async throws {
        try await withRunningLoop { loop, _ in
            let masks = await withTaskExecutorPreference(loop.taskExecutor) { () -> (term: Int32, segv: Int32) in
                var mask = sigset_t()
                pthread_sigmask(SIG_BLOCK, nil, &mask)
                return (sigismember(&mask, SIGTERM), sigismember(&mask, SIGSEGV))
            }
            #expect(masks.term == 1, "SIGTERM must stay pending for ServiceLifecycle's signalfd")
            #expect(masks.segv == 0, "a fault must still reach its thread")
        }
    }
}
