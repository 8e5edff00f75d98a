import DBus
import ReadingColumns
import ReadingQueries

/// Reads through cuffd a page at a time (docs/dbus-api.md, "Paging"), so that neither cuffd nor cuffctl holds more
/// than one page of a store of any size: blood-pressure readings as columns (`ReadingColumns`), heart-rate sensors'
/// samples as dictionaries (`HeartRates`).
struct ReadingPages {
    /// Readings asked for per `ReadingColumns` call: a page's exported text is held whole before it is written
    /// (about 3 MB of FHIR for 1 000 readings), so larger pages would buy little speed for much memory.
    static let readingPageSize = 1000
    /// Samples asked for per `HeartRates` call: cuffd's largest page of dictionaries.
    static let heartRatePageSize = 1000

    /// The caller's filter, without `limit`, `before` or `after`.
    let filter: [String: DBusVariant]
    /// The most one request brings.
    let pageSize: Int
    /// Answers one request: cuffd over the bus, or a store file read in this process.
    private let fetch: ([String: DBusVariant]) async throws -> [ReadingOutput]

    /// Pages from cuffd, read with the caller's rights: blood-pressure readings, or with `heartRates` the samples of
    /// heart-rate sensors.
    init(cuffd: CuffdConnection, heartRates: Bool = false, filter: [String: DBusVariant]) {
        self.filter = filter
        if heartRates {
            pageSize = Self.heartRatePageSize
            fetch = { request in
                try (await cuffd.call("HeartRates", [request.dbusValue]).first?.decode([DBusProperties].self) ?? []).map(ReadingOutput.init(fields:))
            }
        } else {
            pageSize = Self.readingPageSize
            fetch = { request in
                guard let columns = try await cuffd.call("ReadingColumns", [request.dbusValue]).first?.decode(DBusProperties.self) else { return [] }
                do {
                    return try ReadingColumns.records(columns).map(ReadingOutput.init)
                } catch {
                    throw CuffctlFailure.failed("cuffd's ReadingColumns answered \(error)")
                }
            }
        }
    }

    /// Pages from a store file opened read-only in this process (`export --store`): readings, or with
    /// `heartRates` the samples of heart-rate sensors.
    init(store: StoreReadingPages, heartRates: Bool = false, filter: [String: DBusVariant]) {
        self.filter = filter
        pageSize = heartRates ? Self.heartRatePageSize : Self.readingPageSize
        fetch = { request in
            do {
                return heartRates ? try store.heartRatePage(request).map(ReadingOutput.init(fields:)) : try store.readings(request).map(ReadingOutput.init)
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
            let page = try await self.page(request, size: pageSize)
            try body(page)
            guard page.count == pageSize, let cursor = page.last?.string("cursor") else { return }
            request["after"] = DBusVariant(cursor)
        }
    }

    /// The newest `count` matching readings, oldest first.
    func newest(_ count: Int) async throws -> [ReadingOutput] {
        var request = filter
        var pages: [[ReadingOutput]] = []
        var remaining = count
        while remaining > 0 {
            let size = min(remaining, pageSize)
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
