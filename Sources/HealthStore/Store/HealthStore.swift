import Foundation

/// The HealthKit-like store: validates input, enforces per-client authorization, converts units,
/// delegates storage to a ``HealthStoreEngine`` and notifies observers after commit.
///
/// Open a durable store with ``open(path:configuration:)`` or a throw-away one with
/// ``inMemory(configuration:)`` (same SQL engine, for tests).
public final class HealthStore: HealthStoring {
    /// The configuration the store was opened with.
    public let configuration: StoreConfiguration
    let engine: any HealthStoreEngine
    let metadataRegistry: [String: MetadataKey]
    let observers = ObserverCenter()

    /// A store over any engine; expired tombstones are purged first unless `purging` is false (a read-only store).
    public init(engine: any HealthStoreEngine, configuration: StoreConfiguration, purging: Bool = true) throws(HealthStoreError) {
        self.engine = engine
        self.configuration = configuration
        metadataRegistry = configuration.metadataRegistry
        if purging { _ = try purgeExpiredTombstones() }
    }

    /// Opens (creating if needed) the SQLite store at `path`: WAL, synchronous=FULL verified,
    /// migrations applied, file mode set (docs/reference/HEALTH-STORE.md §12).
    public static func open(path: String, configuration: StoreConfiguration = StoreConfiguration()) throws(HealthStoreError) -> HealthStore {
        try HealthStore(engine: SQLiteEngine(path: path, configuration: configuration), configuration: configuration)
    }

    /// The store at `path` for reading only — a backup, or a store read by an administrator beside cuffd: nothing
    /// is created, migrated or written, and tombstones are not purged.
    public static func openReadOnly(path: String, configuration: StoreConfiguration = StoreConfiguration()) throws(HealthStoreError) -> HealthStore {
        try HealthStore(engine: SQLiteEngine(readOnlyPath: path, configuration: configuration), configuration: configuration, purging: false)
    }

    /// Rewrites the store at `path` with the page size a new store is made with, 1 KiB (docs/health-store.md, "Bytes
    /// written"): the page sizes before and after, the same when it had it already. Every row is kept; `VACUUM`
    /// makes the new file atomically. Fails with ``HealthStoreError/databaseBusy``, changing nothing, while another
    /// connection has the store open — cuffd must be stopped first.
    public static func rewritePages(path: String) throws(HealthStoreError) -> (before: Int, after: Int) {
        try SQLiteStoreRewrite.run(path)
    }

    /// A store in an in-memory SQLite database (no durability; for tests and previews).
    public static func inMemory(configuration: StoreConfiguration = StoreConfiguration()) throws(HealthStoreError) -> HealthStore {
        try HealthStore(engine: SQLiteEngine(inMemoryWith: configuration), configuration: configuration)
    }

    /// This store's identifier: random, made once per store file, kept by copies and backups of it
    /// (docs/health-store.md, "Schema and migrations").
    public func identifier() throws(HealthStoreError) -> UUID {
        try engine.storeIdentifier()
    }

    public var committedWrites: UInt64 { engine.committedWrites }

    /// Drops tombstones older than ``StoreConfiguration/tombstoneRetention``; runs at open.
    @discardableResult
    public func purgeExpiredTombstones() throws(HealthStoreError) -> Int {
        try engine.purgeTombstones(deletedBefore: configuration.clock().addingTimeInterval(-configuration.tombstoneRetention))
    }

    // MARK: Saving

    public func saveBloodPressure(_ reading: BloodPressureReading, as client: HealthClient) throws(HealthStoreError) -> SaveOutcome<Correlation> {
        try save([reading.correlation()], as: client)[0]
    }

    public func saveBloodPressure(_ readings: [BloodPressureReading], as client: HealthClient) throws(HealthStoreError) -> [SaveOutcome<Correlation>] {
        try save(readings.map { $0.correlation() }, as: client)
    }

    public func save(_ samples: [QuantitySample], as client: HealthClient) throws(HealthStoreError) -> [SaveOutcome<QuantitySample>] {
        guard !samples.isEmpty else { return [] }
        let types = Self.distinct(samples, \.type.identifier)
        for type in types {
            try requireShare(try configuration.quantityTypes.type(type), client)
        }
        let revision = SharedValue(configuration.revision(for: client))
        var seen = DistinctUUIDs(capacity: samples.count)
        var normalized: [QuantitySample] = []
        normalized.reserveCapacity(samples.count)
        var registered: QuantityType?  // the first sample's, once valid: a batch is mostly of one type
        for sample in samples {
            guard seen.insert(sample.uuid) else { throw .duplicateUUID(sample.uuid) }
            normalized.append(try validated(sample, revision: revision, registered: registered))
            if registered == nil { registered = sample.type }
        }
        let outcomes = try engine.saveSamples(normalized, at: configuration.clock())
        // Usually every object committed, and the changed types are the batch's.
        observers.notify(outcomes.allSatisfy(\.didCommit) ? types : Self.distinct(outcomes.lazy.filter(\.didCommit), \.object.type.identifier))
        return outcomes
    }

    public func save(_ correlation: Correlation, as client: HealthClient) throws(HealthStoreError) -> SaveOutcome<Correlation> {
        try save([correlation], as: client)[0]
    }

    public func save(_ correlations: [Correlation], as client: HealthClient) throws(HealthStoreError) -> [SaveOutcome<Correlation>] {
        try save(correlations, as: client, under: client)
    }

    /// Saves correlations as `client` (whose permissions apply) under the source of `writer`.
    /// With `enteredBy`, each committed correlation is recorded in the edit history as entered by hand by that uid.
    func save(
        _ correlations: [Correlation], as client: HealthClient, under writer: HealthClient, enteredBy uid: UInt32? = nil
    ) throws(HealthStoreError) -> [SaveOutcome<Correlation>] {
        guard !correlations.isEmpty else { return [] }
        let revision = SharedValue(configuration.revision(for: writer))
        var checked: [Correlation] = []
        checked.reserveCapacity(correlations.count)
        var uuids = Set<UUID>()
        var types = Set<QuantityType>()
        for correlation in correlations {
            let valid = try validated(correlation, revision: revision)
            for object in [valid.uuid] + (valid.objects + valid.linkedSamples).map(\.uuid) where !uuids.insert(object).inserted {
                throw .duplicateUUID(object)
            }
            types.formUnion((valid.objects + valid.linkedSamples).map(\.type))
            checked.append(valid)
        }
        for type in types { try requireShare(type, client) }
        let outcomes = try engine.saveCorrelations(checked, enteredBy: uid, at: configuration.clock())
        var changed = Set<String>()
        for outcome in outcomes where outcome.didCommit {
            let object = outcome.object
            changed.insert(object.type.identifier)
            changed.formUnion((object.objects + object.linkedSamples).map(\.type.identifier))
        }
        observers.notify(changed)
        return outcomes
    }

    /// The distinct `key`s of `elements`, hashed only where neighbours differ: a batch is mostly of
    /// one type, and hashing every sample's identifier showed in profiles of batched ingest.
    static func distinct<S: Sequence>(_ elements: S, _ key: (S.Element) -> String) -> Set<String> {
        var keys = Set<String>()
        var last: String?
        for element in elements {
            let next = key(element)
            if next != last {
                keys.insert(next)
                last = next
            }
        }
        return keys
    }

    // MARK: Deleting

    public func delete(_ uuids: [UUID], as client: HealthClient) throws(HealthStoreError) -> Int {
        guard !uuids.isEmpty else { return 0 }
        let types = try engine.delete(uuids, ownedBy: configuration.source(for: client).bundleIdentifier, at: configuration.clock())
        observers.notify(Set(types))
        return types.count
    }

    // MARK: Observing

    public func observe(_ types: Set<HealthObjectType>) -> AsyncStream<Set<String>> {
        observers.observe(Set(types.map(\.identifier)))
    }
}
