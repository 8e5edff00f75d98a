import DBus
import HealthStore
import Synchronization

/// The next page of a change feed, read while the page before it crosses the bus (docs/dbus-api.md, "Reads").
///
/// A client catching up — cuff-forward with a backlog — asks for a page only once the one before it has arrived, for
/// the anchor that page ended at. So cuffd's reading thread sat idle while a page's reply crossed the bus and was
/// decoded, and the client then waited for the whole next read (Benchmarks/RESULTS.md, "A page's stages"). After
/// answering a page that says `more`, cuffd reads the next one for the same caller at once. The caller's next call
/// for it — the same connection and rights, the anchor the page ended at, the same limit — is answered with that page
/// if the store has committed nothing since its read was started (``HealthStoring/committedWrites``: no reading, revision,
/// deletion or grant it could have missed); otherwise it is read anew, as without this.
///
/// At most ``capacity`` pages are kept, the oldest dropped first, and a caller's new page replaces the one kept for it:
/// a client that goes away mid-backlog leaves one page held until another takes its place.
final class FeedPagesAhead: Sendable {
    /// The feeds read ahead: `ChangeColumns` and `HeartRateChangeColumns`.
    enum Feed: Hashable, Sendable { case readings, heartRates }

    /// What a page is read for.
    struct Request: Hashable, Sendable {
        /// The caller's unique bus name: another connection, even of the same user, is answered by reads of its own.
        let caller: String
        /// What the caller may read as, when the page is read.
        let client: HealthClient
        let feed: Feed
        /// Where the page starts (0: the feed's beginning).
        let anchor: UInt64
        let limit: Int
    }

    /// Pages kept at most: one for each of a few clients catching up at once.
    static let capacity = 2
    /// Each page with the store's ``HealthStoring/committedWrites`` before its read was started, and the read.
    private let pages = Mutex<[(request: Request, committedWrites: UInt64, read: Task<[String: DBusVariant]?, Never>)]>([])

    /// The page read ahead for `request`, once its read is done, if it is current: nil when none was read for it, its
    /// read failed, or `store` committed anything since the read was started — then at once, without waiting for it.
    func take(_ request: Request, from store: any HealthStoring) async -> [String: DBusVariant]? {
        let page = pages.withLock { pages in
            pages.firstIndex { $0.request == request }.map { pages.remove(at: $0) }
        }
        guard let page, page.committedWrites == store.committedWrites, let reply = await page.read.value,
              page.committedWrites == store.committedWrites else { return nil }
        return reply
    }

    /// Starts reading, with `read`, the page after `reply` — answered for `request` — when `reply` says there is more.
    func readNext(
        after reply: [String: DBusVariant], answering request: Request, of store: any HealthStoring,
        _ read: @escaping @Sendable (UInt64) async throws -> [String: DBusVariant]
    ) {
        guard case .boolean(true)? = reply["more"]?.value, case .uint64(let next)? = reply["anchor"]?.value else { return }
        let following = Request(caller: request.caller, client: request.client, feed: request.feed, anchor: next, limit: request.limit)
        // Before the read is started, so before its snapshot begins: a commit after this number may or may not be in it.
        let committed = store.committedWrites
        let task = Task { try? await read(next) }
        pages.withLock { pages in
            pages.removeAll { $0.request.caller == request.caller && $0.request.feed == request.feed }
            pages.append((following, committed, task))
            if pages.count > Self.capacity { pages.removeFirst(pages.count - Self.capacity) }
        }
    }
}
