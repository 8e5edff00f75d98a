import DBus
import Dispatch
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
        while admission.waiting == 0 { await Task.yield() }
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
                while admission.waiting == queued { await Task.yield() }
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

    @Test("Reads beyond the burst wait for the pace, and all are answered")
    func paced() async throws {
        let admission = ReadAdmission(.init(rate: 20, burst: 1, running: 8, perCaller: 8))
        let start = DispatchTime.now().uptimeNanoseconds
        let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0 ..< 5 { group.addTask { try await admission.admit(Self.reader, paced: true) { true } } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(answered == 5)
        // One at once, four more at 20 a second: no sooner than 200 ms. A lower bound: a loaded machine is only slower.
        #expect(DispatchTime.now().uptimeNanoseconds - start >= 200_000_000)
    }
}
