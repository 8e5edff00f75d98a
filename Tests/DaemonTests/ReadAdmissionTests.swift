import DBus
import Dispatch
import GatewayTestSupport
import ReadingQueries
import Testing
@testable import Daemon

/// When the control API's reads start (docs/dbus-api.md, "Reads"): paced in turn, an administrator's at once, and
/// each uid's bounded. A read held open stands in for a long one.
@Suite("Reads paced in turn", .timeLimit(.minutes(1)))
struct ReadAdmissionTests {
    static let reader: UInt32 = 1000, other: UInt32 = 1001, administrator: UInt32 = 0

    /// A read that says it started, then waits until its gate opens.
    final class HeldRead: Sendable {
        let gate = DispatchSemaphore(value: 0)
        let started: AsyncStream<UInt32>
        private let startedContinuation: AsyncStream<UInt32>.Continuation

        init() { (started, startedContinuation) = AsyncStream.makeStream() }

        /// Off the cooperative pool: the gate blocks its thread.
        func hold(_ uid: UInt32) async {
            startedContinuation.yield(uid)
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async { [gate] in
                    gate.wait()
                    done.resume()
                }
            }
        }

        /// The uids of the next `count` reads to start, in the order they started.
        func nextStarts(_ count: Int) async -> [UInt32] {
            var uids: [UInt32] = []
            for await uid in started {
                uids.append(uid)
                if uids.count == count { break }
            }
            return uids
        }
    }

    @Test("While a uid has as many reads waiting and running as it may, its next is refused with LimitsExceeded, and an administrator's read runs at once")
    func administratorBesideAFullQueue() async throws {
        // One paced read at a time: the reader's second waits behind its first.
        let admission = ReadAdmission(.init(rate: 1000, burst: 10, running: 1, perCaller: 2))
        let held = HeldRead()
        async let first: Void = admission.admit(Self.reader, paced: true) { await held.hold(Self.reader) }
        #expect(await held.nextStarts(1) == [Self.reader])
        async let second: Void = admission.admit(Self.reader, paced: true) { await held.hold(Self.reader) }
        try await waitUntil(admission, waits: 1)
        var refusal: ControlError?
        do {
            try await admission.admit(Self.reader, paced: true) {}
            Issue.record("a third read of uid \(Self.reader) was let through")
        } catch let error as ControlError {
            refusal = error
        }
        #expect(refusal?.dbusError.name == "org.cuffd.Error.LimitsExceeded")
        #expect(refusal?.dbusError.description.contains("uid 1000 has 2 reads") == true, "\(String(describing: refusal?.dbusError))")
        // Not paced: it runs while the reader's first holds the only paced place and its second waits.
        let answered = try await admission.admit(Self.administrator, paced: false) { "answered" }
        #expect(answered == "answered")
        held.gate.signal()
        #expect(await held.nextStarts(1) == [Self.reader])
        held.gate.signal()
        _ = try await (first, second)
        // Both answered, so the uid may read again.
        #expect(try await admission.admit(Self.reader, paced: true) { true })
    }

    @Test("Waiting reads start a uid at a time: a caller's read waits for one of each other waiting caller, not for all queued before it, and every one is answered")
    func readsInTurn() async throws {
        let admission = ReadAdmission(.init(rate: 1000, burst: 10, running: 1, perCaller: 8))
        let held = HeldRead()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await admission.admit(Self.reader, paced: true) { await held.hold(Self.reader) } }
            #expect(await held.nextStarts(1) == [Self.reader])
            // Queued behind it, one at a time so that their order is known: three more of the reader's, then the other's.
            for uid in [Self.reader, Self.reader, Self.reader, Self.other] {
                let queued = admission.waiting
                group.addTask { try await admission.admit(uid, paced: true) { await held.hold(uid) } }
                try await waitUntil(admission, waits: queued + 1)
            }
            var order: [UInt32] = []
            for _ in 0 ..< 4 {
                held.gate.signal()
                order += await held.nextStarts(1)
            }
            held.gate.signal()
            try await group.waitForAll()
            // In arrival order the other's would start fourth; in turn, second.
            #expect(order == [Self.reader, Self.other, Self.reader, Self.reader], "\(order)")
        }
    }

    @Test("A paced read that waited as long as one may is refused with LimitsExceeded, not left to time out; the uid reads again after")
    func waitedTooLong() async throws {
        // No wait allowed: a read that cannot start at once is refused when the queue next moves — here, at once.
        let admission = ReadAdmission(.init(rate: 1000, burst: 10, running: 1, perCaller: 8, maximumWait: 0))
        let held = HeldRead()
        async let first: Void = admission.admit(Self.reader, paced: true) { await held.hold(Self.reader) }
        #expect(await held.nextStarts(1) == [Self.reader])
        do {
            try await admission.admit(Self.other, paced: true) {}
            Issue.record("a read of uid \(Self.other) started while the only place was taken")
        } catch let refusal as DBusError {
            #expect(refusal.name == "org.cuffd.Error.LimitsExceeded")
            #expect(refusal.description.contains("uid 1001's read of the store waited 0 s"), "\(refusal)")
        }
        #expect(admission.waiting == 0)
        held.gate.signal()
        try await first
        #expect(try await admission.admit(Self.other, paced: true) { true })
    }

    @Test("A paced read is refused once it has waited the longest a read may wait, in the admission's time, and not before")
    func refusedAtTheLongestWait() async throws {
        let clock = TestClock()
        let admission = ReadAdmission(.init(rate: 1000, burst: 10, running: 1, perCaller: 8, maximumWait: 10), clock: clock)
        let held = HeldRead()
        async let first: Void = admission.admit(Self.reader, paced: true) { await held.hold(Self.reader) }
        #expect(await held.nextStarts(1) == [Self.reader])
        async let second: Void = admission.admit(Self.other, paced: true) {}
        try await waitUntil(admission, waits: 1)
        // The queue moves (a read comes) a moment before the longest wait: the other's read still waits.
        clock.advance(by: .seconds(10) - .milliseconds(1))
        async let third: Void = admission.admit(1002, paced: true) {}
        try await waitUntil(admission, waits: 2)
        // And again at the longest wait: the other's is refused, the one that came a moment ago waits on.
        clock.advance(by: .milliseconds(1))
        async let fourth: Void = admission.admit(1003, paced: true) {}
        do {
            try await second
            Issue.record("a read that waited 10 s started")
        } catch let refusal as DBusError {
            #expect(refusal.name == "org.cuffd.Error.LimitsExceeded")
            #expect(refusal.description.contains("uid 1001's read of the store waited 10 s"), "\(refusal)")
        }
        #expect(admission.waiting == 2)
        held.gate.signal()
        _ = try await (first, third, fourth)
    }

    /// Returns once `admission` has `count` paced reads waiting.
    func waitUntil(_ admission: ReadAdmission, waits count: Int) async throws {
        while admission.waiting < count {
            try Task.checkCancellation()
            await Task.yield()
        }
    }

    @Test("Reads beyond the burst wait for the pace, one a pace's step apart, and all are answered")
    func paced() async throws {
        // The pace in the admission's own time: the clock moves only when the test moves it, so a loaded machine makes
        // no read wait longer than the pace says, and each read that waits starts when the time is due, not before.
        let clock = TestClock()
        let admission = ReadAdmission(.init(rate: 20, burst: 1, running: 8, perCaller: 8), clock: clock)
        let starts = try await withThrowingTaskGroup(of: Duration.self) { group in
            for _ in 0 ..< 5 { group.addTask { try await admission.admit(Self.reader, paced: true) { clock.now.offset } } }
            // One starts at once on the burst; the other four wait, and no time has passed.
            try await waitUntil(admission, waits: 4)
            #expect(clock.now.offset == .zero)
            // One read a step: each step moves the time to the pace's timer, which starts the next and sets the timer
            // again — a lost wakeup leaves the next step waiting for a timer that never comes.
            var steps: [Duration] = []
            for _ in 0 ..< 4 { steps.append(await clock.advanceToNextDeadline()) }
            #expect(steps.allSatisfy { $0 >= .milliseconds(50) && $0 <= .milliseconds(51) }, "\(steps)")
            return try await group.reduce(into: []) { $0.append($1) }.sorted()
        }
        #expect(starts.count == 5)
        // One at once, four more at 20 a second: each no sooner than 50 ms after the one before it.
        for (index, start) in starts.enumerated() {
            #expect(start >= .milliseconds(50) * index, "read \(index) started at \(start): \(starts)")
        }
        #expect(admission.waiting == 0)
    }
}
