import Foundation

/// Storage behind ``HealthStore``: objects arrive validated, authorized and in canonical units; the
/// engine applies the sync-identifier rule, tombstones and the change counter transactionally.
/// SQLite implements it now (``SQLiteEngine``); a PostgreSQL engine can follow (docs/reference/HEALTH-STORE.md §14).
public protocol HealthStoreEngine: Sendable {
    /// Upserts samples in one transaction (docs/reference/HEALTH-STORE.md §3).
    func saveSamples(_ samples: [QuantitySample], at now: Date) throws(HealthStoreError) -> [SaveOutcome<QuantitySample>]
    /// Upserts correlations with their members and linked samples in one transaction; with `uid`, each committed one is
    /// recorded in the edit history as entered by hand by that uid, in the same transaction.
    func saveCorrelations(_ correlations: [Correlation], enteredBy uid: UInt32?, at now: Date) throws(HealthStoreError) -> [SaveOutcome<Correlation>]
    /// Deletes objects of `source`, cascading correlations; returns the deleted type identifiers
    /// (one entry per tombstone).
    func delete(_ uuids: [UUID], ownedBy source: String, at now: Date) throws(HealthStoreError) -> [String]
    /// Deletes the correlations of type `type` holding `syncIdentifiers` — of the source `source` and of one of
    /// `people` only, when given —
    /// with their members and linked samples, all or nothing, and remembers each (source, sync identifier) so that
    /// saving it again stores nothing; returns the deleted type identifiers (one entry per tombstone). A sync
    /// identifier no such correlation holds is ``HealthStoreError/unknownSyncIdentifier(_:)``. Each deletion is recorded
    /// in the edit history as `uid`'s, in the same transaction.
    func deleteCorrelations(
        of type: String, syncIdentifiers: [String], source: String?, people: Set<String>?, by uid: UInt32, at now: Date
    ) throws(HealthStoreError) -> [String]
    /// Saves a new revision of each correlation of type `type` holding one of `syncIdentifiers` (of `source` and `people` only,
    /// when given):
    /// `changes` applied to its metadata and its members' (nil removes a key), its sync version one higher, in one
    /// transaction with their edit-history records (`uid`'s); returns them. An unknown sync identifier is
    /// ``HealthStoreError/unknownSyncIdentifier(_:)``, and nothing is revised.
    func reviseCorrelations(
        of type: String, syncIdentifiers: [String], source: String?, people: Set<String>?, changes: [MetadataKey: MetadataValue?],
        by uid: UInt32, at now: Date
    ) throws(HealthStoreError) -> [Correlation]
    /// The edit history of the correlations of type `type` holding `syncIdentifier`, oldest first, of the source and
    /// people `scope` names only.
    func editHistory(of type: String, syncIdentifier: String, scope: ChangeScope) throws(HealthStoreError) -> [EditRecord]
    /// Sample query; source restrictions are already in the predicate.
    func samples(_ query: SampleQuery) throws(HealthStoreError) -> [QuantitySample]
    /// Correlation query with all members.
    func correlations(_ query: CorrelationQuery) throws(HealthStoreError) -> [Correlation]
    /// Correlation query read flat; `valueSources[i]`, when not nil, restricts `columns.values[i]` to that source.
    func correlationRows(_ query: CorrelationQuery, columns: CorrelationColumns, valueSources: [String?]) throws(HealthStoreError) -> [CorrelationRow]
    /// Statistics per bucket `[boundaries[i], boundaries[i+1])`.
    func statistics(of type: QuantityType, predicate: SamplePredicate, options: StatisticsOptions, boundaries: [Date]) throws(HealthStoreError) -> [HealthStatistics]
    /// Changes after `anchor` for the given types, each in its scope (a source, people).
    func changes(_ filters: [String: ChangeScope], since anchor: QueryAnchor?, limit: Int) throws(HealthStoreError) -> ChangeBatch
    /// ``changes(_:since:limit:)`` of one correlation type, read flat.
    func correlationRowChanges(
        _ filters: [String: ChangeScope], since anchor: QueryAnchor?, limit: Int, columns: CorrelationColumns, valueSources: [String?]
    ) throws(HealthStoreError) -> CorrelationRowBatch
    /// Drops tombstones deleted before `cutoff`; anchors older than the newest dropped one expire.
    func purgeTombstones(deletedBefore cutoff: Date) throws(HealthStoreError) -> Int
    /// The store's own random identifier, made when it was created (or first opened by a build that has it).
    func storeIdentifier() throws(HealthStoreError) -> UUID
    /// Write transactions this engine has committed since it was opened (its own writes: the store has one writer).
    /// Read before a read of the store, and again later: the same number means nothing was committed in between.
    var committedWrites: UInt64 { get }
    /// Whether the source `bundleIdentifier` ever wrote to the store: a client that may not read a type sees its own
    /// objects only, and one whose source never wrote sees nothing (``HealthStore/seesAny(of:as:)``).
    func knowsSource(_ bundleIdentifier: String) throws(HealthStoreError) -> Bool
    /// The stored grant of `uid` for `type`.
    func grant(uid: UInt32, type: QuantityType) throws(HealthStoreError) -> AuthorizationGrant?
    /// Stores a grant.
    func setGrant(_ grant: AuthorizationGrant) throws(HealthStoreError)
}
