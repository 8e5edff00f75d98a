import DBusTestSupport
import Dispatch
import Foundation
import Glibc
import Testing
@testable import MainLoop

/// The thread cuffd's control API's calls run on, beside the main loop that commits readings (docs/architecture.md,
/// "One thread for Swift concurrency").
@Suite("BackgroundLoop beside MainLoop")
struct BackgroundLoopTests {
    @Test("Tasks preferring it run on one thread of its own, at its niceness, with the asynchronous signals blocked")
    func tasksRunOnItsThread() async throws {
        let background = BackgroundLoop(niceness: 7)
        defer { background.stop() }
        typealias Seen = (thread: pthread_t, niceness: Int32, termBlocked: Int32)
        let seen = await withTaskExecutorPreference(background) {
            await withTaskGroup(of: Seen.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var mask = sigset_t()
                        pthread_sigmask(SIG_BLOCK, nil, &mask)
                        return (pthread_self(), getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), sigismember(&mask, SIGTERM))
                    }
                }
                return await group.reduce(into: [Seen]()) { $0.append($1) }
            }
        }
        try #require(seen.count == 8)
        #expect(seen.allSatisfy { pthread_equal($0.thread, seen[0].thread) != 0 })
        #expect(pthread_equal(seen[0].thread, pthread_self()) == 0)
        #expect(seen.allSatisfy { $0.niceness == 7 })
        #expect(seen.allSatisfy { $0.termBlocked == 1 }, "SIGTERM must stay pending for ServiceLifecycle's signalfd")
    }

    @Test("The main loop runs its jobs while a job holds the background loop's thread")
    func mainLoopIsNotHeldBehindIt() async throws {
        let loop = MainLoop(), background = BackgroundLoop(niceness: 5)
        Thread { loop.run() }.start()
        defer {
            loop.stop()
            background.stop()
        }
        let release = DispatchSemaphore(value: 0)
        let holding = Gate()
        let held = Task(executorPreference: background) {
            holding.open()
            release.wait()  // the background thread is busy until the test says so
            return pthread_self()
        }
        try await holding.wait()
        // Were the main loop's jobs queued behind the held one, this would never answer.
        let mainThread = await withTaskExecutorPreference(loop.taskExecutor) { pthread_self() }
        release.signal()
        #expect(pthread_equal(mainThread, await held.value) == 0)
    }

    @Test("Task.sleep on it resumes on its thread")
    func sleepResumesOnItsThread() async throws {
        let background = BackgroundLoop(niceness: 5)
        defer { background.stop() }
        let clock = ContinuousClock()
        let (before, after, slept) = await withTaskExecutorPreference(background) { () -> (pthread_t, pthread_t, Duration) in
            let before = pthread_self(), start = clock.now
            // The sleep is what is tested (that it resumes on the loop's thread, no earlier than asked), as in
            // MainLoopTests; docs/testing.md, "What is still timed".
            try? await Task.sleep(for: .milliseconds(20))
            return (before, pthread_self(), clock.now - start)
        }
        #expect(pthread_equal(before, after) != 0)
        #expect(slept >= .milliseconds(20))
    }
}
