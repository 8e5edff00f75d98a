import DBusTestSupport
import Foundation
import Synchronization
import Testing
@testable import HealthStore

/// The anchored change feed (docs/reference/HEALTH-STORE.md §5; `HKAnchoredObjectQuery`).
@Suite struct ChangeFeedTests {
    @Test func pagesWithHasMoreAndNeverSkipAnObject() throws {
        let store = try Fixture.store()
        var expected: [UUID] = []
        for n in 0..<7 {
            let batch = (0..<3).map { Fixture.heartRate(Double(60 + $0), at: Fixture.t0.addingTimeInterval(Double(n * 10 + $0))) }
            _ = try store.save(batch, as: Fixture.daemon)
            expected += batch.map(\.uuid)
        }
        var seen: [UUID] = []
        var anchor: QueryAnchor?
        var pages = 0
        var caughtUp = 0
        while true {
            let page = try store.changes(of: [.quantity(.heartRate)], since: anchor, limit: 4, as: Fixture.daemon)
            seen += page.added.map(\.uuid)
            anchor = page.newAnchor
            pages += 1
            if !page.hasMore { break }
            // A commit between pages is picked up later, never skipped.
            if pages == 2 {
                let late = Fixture.heartRate(99, at: Fixture.t0)
                _ = try store.save([late], as: Fixture.daemon)
                expected.append(late.uuid)
            }
        }
        #expect(seen == expected)
        #expect(pages == 6)
        let idle = try store.changes(of: [.quantity(.heartRate)], since: anchor, limit: 4, as: Fixture.daemon)
        #expect(idle.added.isEmpty && idle.deleted.isEmpty && !idle.hasMore && idle.newAnchor == anchor)
    }

    @Test func feedIsFilteredByTypeAndReturnsWholeCorrelations() throws {
        let store = try Fixture.store()
        _ = try store.save([Fixture.heartRate(60, at: Fixture.t0)], as: Fixture.daemon)
        let c = try store.saveBloodPressure(Fixture.reading(), as: Fixture.daemon).object
        let feed = try store.changes(of: [.correlation(.bloodPressure)], since: nil, limit: 10, as: Fixture.daemon)
        #expect(feed.added.count == 1)
        guard case .correlation(let got)? = feed.added.first else { Issue.record("expected a correlation"); return }
        #expect(got.uuid == c.uuid && got.objects.count == 3 && got.linkedSamples.count == 1)
    }

    @Test func anchorsAdvanceOverInvisibleChanges() throws {
        let store = try Fixture.store()
        let first = try store.changes(of: [.quantity(.heartRate)], since: nil, limit: 10, as: Fixture.daemon)
        _ = try store.saveBloodPressure(Fixture.reading(pulse: nil), as: Fixture.daemon)
        let second = try store.changes(of: [.quantity(.heartRate)], since: first.newAnchor, limit: 10, as: Fixture.daemon)
        #expect(second.added.isEmpty)
        #expect(second.newAnchor > first.newAnchor)
    }
}

/// Anchors under concurrency: a reader pages the feed of a file store (WAL, snapshot readers) while
/// another thread commits; every object is seen exactly once, in commit order. Every tenth round the writer
/// waits until the reader has caught up, so that the reader catches up while commits are still to come on any
/// machine; otherwise the two run freely.
@Suite struct ConcurrentChangeFeedTests {
    final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }

    @Test func aReaderPagingDuringCommitsSeesEveryObjectOnceInOrder() async throws {
        let dir = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try HealthStore.open(path: dir.appendingPathComponent("feed.sqlite").path)
        let done = Flag()
        let caughtUpWith = Observed(0)  // how many objects the reader had when it last found no more
        let writer = Task.detached {
            defer { done.set() }  // also when it fails, so that the reader stops
            var committed: [UUID] = []
            for round in 0..<100 {
                let batch = (0..<(1 + round % 5)).map { Fixture.heartRate(Double(60 + $0), at: Fixture.t0.addingTimeInterval(Double(round))) }
                _ = try store.save(batch, as: Fixture.daemon)
                committed += batch.map(\.uuid)
                if round % 10 == 9 {
                    let count = committed.count
                    try await caughtUpWith.wait(for: "the reader to catch up with \(count) objects") { $0 >= count ? () : nil }
                }
            }
            return committed
        }
        var seen: [UUID] = []
        var anchor: QueryAnchor?
        var pages = 0
        var caughtUp = 0
        while true {
            let finished = done.isSet  // read before the page: a drained page after this saw every commit
            let page = try store.changes(of: [.quantity(.heartRate)], since: anchor, limit: 7, as: Fixture.daemon)
            seen += page.added.map(\.uuid)
            anchor = page.newAnchor
            pages += 1
            if !page.hasMore {
                if finished { break }
                caughtUp += 1
                caughtUpWith.update { $0 = seen.count }
                await Task.yield()
            }
        }
        let committed = try await writer.value
        #expect(seen.count == 300)
        #expect(seen == committed)
        #expect(pages > 40)
        #expect(caughtUp >= 10, "the reader caught up with the writer at every tenth round at least")
    }
}
