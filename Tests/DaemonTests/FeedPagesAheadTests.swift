import DBus
import Foundation
import HealthStore
import Synchronization
import Testing
@testable import Daemon

/// The next page of a change feed read ahead (``FeedPagesAhead``): served only to the request it was read for, and only
/// while the store has committed nothing since its read began.
@Suite("Change feeds: the next page read ahead")
struct FeedPagesAheadTests {
    static let alice = HealthClient.user(uid: 1000)

    static func request(_ caller: String = ":1.7", anchor: UInt64, limit: Int = 2, client: HealthClient = alice) -> FeedPagesAhead.Request {
        FeedPagesAhead.Request(caller: caller, client: client, feed: .readings, anchor: anchor, limit: limit)
    }

    static func reply(anchor: UInt64, more: Bool) -> [String: DBusVariant] {
        ["anchor": DBusVariant(anchor), "more": DBusVariant(more)]
    }

    static func store() throws -> HealthStore {
        let store = try HealthStore.inMemory()
        _ = try store.saveBloodPressure(reading(1), as: .daemon())
        return store
    }

    static func reading(_ n: Int) -> BloodPressureReading {
        BloodPressureReading(systolic: 120, diastolic: 80, receivedAt: Date(timeIntervalSince1970: 1_773_000_000 + Double(n) * 60),
                             device: HealthDevice(identity: "C4F312"), syncIdentifier: "r\(n)")
    }

    /// A read that records the anchors it was asked for, announces each on `done`, and answers a page ending 10
    /// further on.
    final class Reads: Sendable {
        let anchors = Mutex<[UInt64]>([])
        let store: HealthStore
        let done: AsyncStream<UInt64>
        private let continuation: AsyncStream<UInt64>.Continuation
        init(_ store: HealthStore) {
            self.store = store
            (done, continuation) = AsyncStream.makeStream()
        }

        func read(_ anchor: UInt64) -> [String: DBusVariant] {
            anchors.withLock { $0.append(anchor) }
            defer { continuation.yield(anchor) }
            return FeedPagesAheadTests.reply(anchor: anchor + 10, more: true)
        }
    }

    @Test("After a page with more, the next is read at once and served for its anchor; a page without more starts nothing")
    func servedForItsRequest() async throws {
        let store = try Self.store()
        let reads = Reads(store)
        let pages = FeedPagesAhead()
        pages.readNext(after: Self.reply(anchor: 20, more: false), answering: Self.request(anchor: 10), of: store) { reads.read($0) }
        #expect(await pages.take(Self.request(anchor: 20), from: store) == nil)

        pages.readNext(after: Self.reply(anchor: 20, more: true), answering: Self.request(anchor: 10), of: store) { reads.read($0) }
        // Another caller, other rights, another limit or another anchor: not the request it was read for.
        #expect(await pages.take(Self.request(":1.8", anchor: 20), from: store) == nil)
        #expect(await pages.take(Self.request(anchor: 20, client: .user(uid: 1001)), from: store) == nil)
        #expect(await pages.take(Self.request(anchor: 20, limit: 3), from: store) == nil)
        #expect(await pages.take(Self.request(anchor: 21), from: store) == nil)
        #expect(await pages.take(Self.request(anchor: 20), from: store) == Self.reply(anchor: 30, more: true))
        #expect(reads.anchors.withLock { $0 } == [20])
        #expect(await pages.take(Self.request(anchor: 20), from: store) == nil, "a page is served once")
    }

    @Test("A commit after the read began — a reading, or a grant — and the page is read anew instead")
    func staleAfterACommit() async throws {
        let store = try Self.store()
        let reads = Reads(store)
        let pages = FeedPagesAhead()
        var done = reads.done.makeAsyncIterator()
        pages.readNext(after: Self.reply(anchor: 20, more: true), answering: Self.request(anchor: 10), of: store) { reads.read($0) }
        #expect(await done.next() == 20)
        #expect(await pages.take(Self.request(anchor: 20), from: store) != nil, "nothing committed since the read")

        pages.readNext(after: Self.reply(anchor: 30, more: true), answering: Self.request(anchor: 20), of: store) { reads.read($0) }
        #expect(await done.next() == 30)
        _ = try store.saveBloodPressure(Self.reading(2), as: .daemon())
        #expect(await pages.take(Self.request(anchor: 30), from: store) == nil)

        pages.readNext(after: Self.reply(anchor: 40, more: true), answering: Self.request(anchor: 30), of: store) { reads.read($0) }
        #expect(await done.next() == 40)
        try store.setAuthorization(AuthorizationGrant(uid: 1000, type: .bloodPressureSystolic, canShare: false, canRead: true), by: .user(uid: 0))
        #expect(await pages.take(Self.request(anchor: 40), from: store) == nil)
    }

    @Test("A page whose read is still under way when the store commits is not waited for", .timeLimit(.minutes(1)))
    func staleNotWaitedFor() async throws {
        let store = try Self.store()
        let pages = FeedPagesAhead()
        let (release, releasing) = AsyncStream<Void>.makeStream()
        defer { releasing.finish() }
        // A read that ends only when the test ends: `take` must not wait for it once the page cannot be served.
        pages.readNext(after: Self.reply(anchor: 20, more: true), answering: Self.request(anchor: 10), of: store) { anchor in
            for await _ in release {}
            return Self.reply(anchor: anchor + 10, more: true)
        }
        _ = try store.saveBloodPressure(Self.reading(2), as: .daemon())
        #expect(await pages.take(Self.request(anchor: 20), from: store) == nil)
    }

    @Test("Pages are kept for a few callers at once, the oldest dropped first")
    func bounded() async throws {
        let store = try Self.store()
        let reads = Reads(store)
        let pages = FeedPagesAhead()
        let callers = (0 ... FeedPagesAhead.capacity).map { ":1.\(10 + $0)" }
        for caller in callers {
            pages.readNext(after: Self.reply(anchor: 20, more: true), answering: Self.request(caller, anchor: 10), of: store) { reads.read($0) }
        }
        #expect(await pages.take(Self.request(callers[0], anchor: 20), from: store) == nil)
        for caller in callers.dropFirst() {
            #expect(await pages.take(Self.request(caller, anchor: 20), from: store) != nil)
        }
    }
}
