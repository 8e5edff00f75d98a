import DBus
import Dispatch
import Foundation
import Gateway
import HealthStore
import MainLoop
import ReadingQueries
import Testing
@testable import Daemon

/// The control API's store reads (docs/dbus-api.md, "Reads"), on a `MainLoop` as cuffd runs them: a read held open
/// stands in for a long one over a large store.
@Suite("Store reads off the main loop", .timeLimit(.minutes(1)))
struct StoreReadersTests {
    static let reader: UInt32 = 1000, other: UInt32 = 1001, ungranted: UInt32 = 1002

    /// A store of one reading, on a file: reads and the commit each on a connection of their own. `reader` and
    /// `other` may read blood pressure; `ungranted` may read nothing.
    static func store() throws -> (HealthStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-readers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = try HealthStore.open(path: directory.appendingPathComponent("health.sqlite").path)
        _ = try store.saveBloodPressure(HealthStoreReadingStore.record(GatewayLogTests.reading), as: .daemon())
        for uid in [reader, other] {
            for type in TypeGroups.byName["bloodPressure"]! {
                try store.setAuthorization(AuthorizationGrant(uid: uid, type: type, canShare: false, canRead: true), by: .daemon())
            }
        }
        return (store, directory)
    }

    /// A read that waits until its gate opens, once it has said it started.
    final class HeldRead: Sendable {
        let gate = DispatchSemaphore(value: 0)
        let started: AsyncStream<Void>
        private let startedContinuation: AsyncStream<Void>.Continuation

        init() { (started, startedContinuation) = AsyncStream.makeStream() }

        func hold() {
            startedContinuation.yield()
            gate.wait()
        }

        /// Returns once `count` held reads have started.
        func waitForStarts(_ count: Int) async {
            var seen = 0
            for await _ in started {
                seen += 1
                if seen == count { return }
            }
        }
    }

    /// Runs `body` on a `MainLoop` running on a thread of its own, as cuffd's tasks run.
    func onMainLoop<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let loop = MainLoop()
        Thread { loop.run() }.start()
        defer { loop.stop() }
        return try await withTaskExecutorPreference(loop.taskExecutor) { try await body() }
    }

    @Test("A cuff's reading is committed while a read is held open")
    func commitsWhileAReadIsHeld() async throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let readers = StoreReaders()
        let held = HeldRead()
        try await onMainLoop {
            async let statistics = readers.read(ControlAPI.statisticsTypes, in: store, as: .user(uid: Self.reader)) {
                held.hold()
                return try ControlAPI.statistics(try ReadingFilter([:]), in: store, as: .user(uid: Self.reader))
            }
            await held.waitForStarts(1)
            // Were the read on the loop, the loop would be waiting at its gate, and this would never run.
            var next = GatewayLogTests.reading
            next.payload = [0x1F]  // another sync identifier
            let outcome = try await HealthStoreReadingStore(store: store).commit(next)
            #expect(outcome == .stored)
            held.gate.signal()
            // The read's snapshot was taken once its gate opened: after the commit.
            let counted = try Self.count(try await statistics)
            #expect(counted == 2)
        }
    }

    /// The systolic count of a `Statistics` answer.
    static func count(_ statistics: [String: DBusVariant]) throws -> UInt32? {
        let systolic = try #require(statistics["bloodPressureSystolic"])
        return try systolic.value.decode(DBusProperties.self).property("count", as: UInt32.self)
    }

    @Test("A caller without a grant is answered at once, even while every reading thread is held")
    func ungrantedAnsweredAtOnce() async throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let readers = StoreReaders(threads: 2)
        let held = HeldRead()
        try await onMainLoop {
            async let first: Void = readers.read(ControlAPI.readingTypes, in: store, as: .user(uid: Self.reader)) { held.hold() }
            async let second: Void = readers.read(ControlAPI.readingTypes, in: store, as: .user(uid: Self.reader)) { held.hold() }
            await held.waitForStarts(2)
            let nothing = try await readers.read(ControlAPI.statisticsTypes, in: store, as: .user(uid: Self.ungranted)) {
                try ControlAPI.statistics(try ReadingFilter([:]), in: store, as: .user(uid: Self.ungranted))
            }
            #expect(nothing.count == 5)
            let counted = try Self.count(nothing)
            #expect(counted == 0)
            for (type, entry) in nothing {
                let values = try entry.value.decode(DBusProperties.self)
                #expect(values.keys.sorted() == ["count"], "\(type): \(values)")
            }
            held.gate.signal()
            held.gate.signal()
            _ = try await (first, second)
        }
    }

    @Test("Waiting reads are served a uid at a time: a caller's read waits for one of each other caller, not for all queued before it")
    func readsInTurn() async throws {
        let jobs = ReadJobs()
        let (served, serving) = AsyncStream<UInt32>.makeStream()
        // Queued before any thread runs them: four of the reader's, one of the other's between them, one of a third uid
        // last.
        let queued = [Self.reader, Self.reader, Self.reader, Self.other, Self.reader, Self.ungranted]
        for uid in queued { jobs.append({ serving.yield(uid) }, for: uid) }
        jobs.stop()
        Thread { jobs.work(niceness: 0) }.start()
        var order: [UInt32] = []
        for await uid in served {
            order.append(uid)
            if order.count == queued.count { break }
        }
        // In arrival order the last would be served sixth; in turn, third.
        #expect(order == [Self.reader, Self.other, Self.ungranted, Self.reader, Self.reader, Self.reader], "\(order)")
    }
}
