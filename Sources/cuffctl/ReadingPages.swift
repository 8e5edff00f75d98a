import DBus
import Daemon

/// Reads through cuffd's `Readings` a page at a time (docs/dbus-api.md, "Paging"), so that neither cuffd nor
/// cuffctl holds more than one page of a store of any size.
struct ReadingPages {
    /// Readings asked for per call: cuffd's largest page.
    static let pageSize = 1000

    /// The caller's filter, without `limit`, `before` or `after`.
    let filter: [String: DBusVariant]
    /// Answers one `Readings` request: cuffd over the bus, or a store file read in this process.
    private let fetch: ([String: DBusVariant]) async throws -> [ReadingOutput]

    /// Pages from cuffd, read with the caller's rights: blood-pressure readings (`Readings`), or with `method`
    /// `HeartRates` the samples of heart-rate sensors.
    init(cuffd: CuffdConnection, method: String = "Readings", filter: [String: DBusVariant]) {
        self.filter = filter
        fetch = { request in
            let reply = try await cuffd.call(method, [request.dbusValue])
            return try (reply.first?.decode([DBusProperties].self) ?? []).map(ReadingOutput.init)
        }
    }

    /// Pages from a store file opened read-only in this process (`export --store`): readings, or with
    /// `heartRates` the samples of heart-rate sensors.
    init(store: StoreReadingPages, heartRates: Bool = false, filter: [String: DBusVariant]) {
        self.filter = filter
        fetch = { request in
            do {
                return try (heartRates ? store.heartRatePage(request) : store.page(request)).map(ReadingOutput.init)
            } catch let error as DBusError {
                throw CuffctlFailure(error)
            }
        }
    }

    /// Every matching reading (after the one at `cursor`, when given), oldest first, handed over a page at a time.
    func forEach(after cursor: String = "", _ body: ([ReadingOutput]) throws -> Void) async throws {
        var request = filter
        request["after"] = DBusVariant(cursor)
        while true {
            let page = try await self.page(request, size: Self.pageSize)
            try body(page)
            guard page.count == Self.pageSize, let cursor = page.last?.string("cursor") else { return }
            request["after"] = DBusVariant(cursor)
        }
    }

    /// The newest `count` matching readings, oldest first.
    func newest(_ count: Int) async throws -> [ReadingOutput] {
        var request = filter
        var pages: [[ReadingOutput]] = []
        var remaining = count
        while remaining > 0 {
            let size = min(remaining, Self.pageSize)
            let page = try await self.page(request, size: size)
            pages.append(page)
            remaining -= page.count
            guard page.count == size, let cursor = page.first?.string("cursor") else { break }
            request["before"] = DBusVariant(cursor)
        }
        return pages.reversed().flatMap { $0 }
    }

    private func page(_ request: [String: DBusVariant], size: Int) async throws -> [ReadingOutput] {
        var request = request
        request["limit"] = DBusVariant(UInt32(size))
        return try await fetch(request)
    }
}
