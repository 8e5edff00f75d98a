import DBus
import HealthStore
import ReadingColumns

/// The pages `Readings` answers (docs/dbus-api.md, Paging), read from a store file in this process instead of
/// through cuffd: `cuffctl export --store` reads a backup, or a store an administrator reads beside cuffd, with
/// the same readings and cursors, the oldest first.
public struct StoreReadingPages {
    let store: any HealthStoring
    let client: HealthClient

    public init(store: any HealthStoring, client: HealthClient = .daemon()) {
        self.store = store
        self.client = client
    }

    /// The page `ReadingColumns` would answer to `request` (its filter keys: `since`, `until`, `device`, `user`,
    /// `limit` up to ``ReadingColumns/maximumRows``, `before`, `after`), with the caller's rights replaced by this
    /// store's client.
    public func readings(_ request: DBusProperties) throws -> [ReadingRecord] {
        try answer { try ReadingFilter(request, maximumLimit: ReadingColumns.maximumRows).readings(in: store, as: client) }
    }

    /// The page `HeartRates` would answer to `request`.
    public func heartRatePage(_ request: DBusProperties) throws -> [DBusProperties] {
        try answer { try ReadingFilter(request).heartRates(in: store, as: client).map(HeartRateDictionary.make) }
    }

    private func answer<Page>(_ body: () throws -> Page) throws -> Page {
        do {
            return try body()
        } catch let error as HealthStoreError {
            throw ControlError.from(error).dbusError
        }
    }
}
