import DBus
import ReadingColumns

/// Follows cuffd's change feed (`ChangeColumns`, docs/dbus-api.md): every reading as it is stored or revised, in the
/// order cuffd committed them — a record downloaded late from a cuff's memory too, whatever its measurement time.
struct ChangeFeed {
    let cuffd: CuffdConnection
    /// Where the next page starts.
    private(set) var anchor: UInt64

    /// A feed from `anchor` (0: the beginning of the store) on.
    init(cuffd: CuffdConnection, anchor: UInt64 = 0) {
        self.cuffd = cuffd
        self.anchor = anchor
    }

    /// A feed from what is stored now on.
    static func fromNow(_ cuffd: CuffdConnection) async throws -> ChangeFeed {
        var feed = ChangeFeed(cuffd: cuffd)
        feed.anchor = try await feed.page(["latest": DBusVariant(true)]).anchor
        return feed
    }

    /// Every reading stored since the last call, a page at a time.
    mutating func drain(_ body: ([ReadingOutput]) -> Void) async throws {
        while true {
            let page = try await page(["anchor": DBusVariant(anchor), "limit": DBusVariant(UInt32(ReadingPages.readingPageSize))])
            body(page.readings)
            anchor = page.anchor
            guard page.more else { return }
        }
    }

    private func page(_ request: [String: DBusVariant]) async throws -> (readings: [ReadingOutput], anchor: UInt64, more: Bool) {
        let page = try await Self.page(cuffd, "ChangeColumns", request) { try ReadingColumns.records($0).map(ReadingOutput.init) }
        return (page.rows, page.anchor, page.more)
    }

    /// How many heart-rate samples the heart-rate change feed (`HeartRateChangeColumns`, docs/dbus-api.md) holds after
    /// `anchor`: what `cuffctl forward status` shows as a sink's heart-rate lag.
    static func pendingHeartRates(_ cuffd: CuffdConnection, after anchor: UInt64) async throws -> Int {
        var anchor = anchor, pending = 0
        while true {
            let request = ["anchor": DBusVariant(anchor), "limit": DBusVariant(UInt32(ReadingPages.readingPageSize))]
            let page = try await page(cuffd, "HeartRateChangeColumns", request) { try HeartRateColumns.records($0) }
            pending += page.rows.count
            anchor = page.anchor
            guard page.more else { return pending }
        }
    }

    /// One page of the feed `method` answers, its columns made rows by `rows`.
    private static func page<Row>(
        _ cuffd: CuffdConnection, _ method: String, _ request: [String: DBusVariant], rows: (DBusProperties) throws -> [Row]
    ) async throws -> (rows: [Row], anchor: UInt64, more: Bool) {
        let reply = try await cuffd.call(method, [request.dbusValue])
        guard let fields = try reply.first?.decode(DBusProperties.self),
              let anchor = try fields.property("anchor", as: UInt64.self), let more = try fields.property("more", as: Bool.self)
        else { throw CuffctlFailure.failed("cuffd's \(method) answered \(reply)") }
        do {
            return (try fields.property("columns", as: DBusProperties.self).map(rows) ?? [], anchor, more)
        } catch {
            throw CuffctlFailure.failed("cuffd's \(method) answered \(error)")
        }
    }
}
