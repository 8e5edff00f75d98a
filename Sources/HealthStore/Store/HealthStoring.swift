import Foundation

/// The store as the Gateway, the D-Bus layer and exporters see it: HealthKit's `HKHealthStore`
/// semantics without SQL (the store's contract: "The Gateway talks to a store protocol, not to SQL").
///
/// Calls are synchronous and thread-safe; a write returns only after its transaction committed
/// (WAL, synchronous=FULL, docs/reference/HEALTH-STORE.md §12), so a caller may acknowledge the cuff afterwards.
public protocol HealthStoring: Sendable {
    /// Saves one cuff reading as a blood-pressure correlation with its pulse, in one transaction.
    /// ``SaveOutcome/alreadyStored(_:)`` means the sync identifier was stored at an equal or
    /// greater version: a duplicate, nothing written.
    func saveBloodPressure(_ reading: BloodPressureReading, as client: HealthClient) throws(HealthStoreError) -> SaveOutcome<Correlation>
    /// Saves several readings (e.g. a cuff's stored records) in one transaction, all or nothing.
    func saveBloodPressure(_ readings: [BloodPressureReading], as client: HealthClient) throws(HealthStoreError) -> [SaveOutcome<Correlation>]
    /// Saves quantity samples, all or nothing (`HKHealthStore.h`).
    func save(_ samples: [QuantitySample], as client: HealthClient) throws(HealthStoreError) -> [SaveOutcome<QuantitySample>]
    /// Saves a correlation with its members and linked samples, all or nothing.
    func save(_ correlation: Correlation, as client: HealthClient) throws(HealthStoreError) -> SaveOutcome<Correlation>
    /// Saves correlations in one transaction, all or nothing.
    func save(_ correlations: [Correlation], as client: HealthClient) throws(HealthStoreError) -> [SaveOutcome<Correlation>]
    /// Deletes the client's own objects by UUID (a correlation takes its members and linked
    /// samples along), all or nothing; returns the number of objects tombstoned.
    func delete(_ uuids: [UUID], as client: HealthClient) throws(HealthStoreError) -> Int
    /// Deletes the correlations of `type` holding these sync identifiers — those the client may change — with their
    /// members and linked samples, all or nothing, remembering each deletion for good; returns the number of objects
    /// tombstoned (docs/health-store.md, "Deleting on request").
    func deleteCorrelations(of type: CorrelationType, syncIdentifiers: [String], as client: HealthClient) throws(HealthStoreError) -> Int
    /// Saves a reading entered by hand under the caller's own source, marked `WasUserEntered` (docs/health-store.md,
    /// "Entered by hand").
    func saveEnteredByHand(_ reading: BloodPressureReading, as client: HealthClient) throws(HealthStoreError) -> SaveOutcome<Correlation>
    /// Saves a new revision of a correlation the client may change, with `changes` applied to its metadata (nil removes
    /// a key) and its sync version one higher (docs/health-store.md, "Revising on request").
    func reviseCorrelation(
        of type: CorrelationType, syncIdentifier: String, changes: [MetadataKey: MetadataValue?], as client: HealthClient
    ) throws(HealthStoreError) -> Correlation
    /// ``reviseCorrelation(of:syncIdentifier:changes:as:)`` of several correlations in one transaction, all or nothing.
    func reviseCorrelations(
        of type: CorrelationType, syncIdentifiers: [String], changes: [MetadataKey: MetadataValue?], as client: HealthClient
    ) throws(HealthStoreError) -> [Correlation]
    /// Who entered, annotated or deleted a correlation on request, when and which keys changed, as far as the client
    /// may read it (docs/health-store.md, "Edit history").
    func editHistory(of type: CorrelationType, syncIdentifier: String, as client: HealthClient) throws(HealthStoreError) -> [EditRecord]
    /// Samples of one type (`HKSampleQuery`).
    func samples(_ query: SampleQuery, as client: HealthClient) throws(HealthStoreError) -> [QuantitySample]
    /// Correlations with the members visible to the client (`HKCorrelationQuery`).
    func correlations(_ query: CorrelationQuery, as client: HealthClient) throws(HealthStoreError) -> [Correlation]
    /// Correlations read flat (``CorrelationColumns``), with the visibility rules of ``correlations(_:as:)``.
    func correlationRows(_ query: CorrelationQuery, columns: CorrelationColumns, as client: HealthClient) throws(HealthStoreError) -> [CorrelationRow]
    /// The change feed of one correlation type read flat, with the rules of ``changes(of:since:limit:as:)``.
    func correlationRowChanges(
        of type: CorrelationType, columns: CorrelationColumns, since anchor: QueryAnchor?, limit: Int, as client: HealthClient
    ) throws(HealthStoreError) -> CorrelationRowBatch
    /// Statistics over one quantity type (`HKStatisticsQuery`).
    func statistics(of type: QuantityType, predicate: SamplePredicate, options: StatisticsOptions, as client: HealthClient) throws(HealthStoreError) -> HealthStatistics
    /// Bucketed statistics (`HKStatisticsCollectionQuery`).
    func statisticsCollection(_ query: StatisticsCollectionQuery, as client: HealthClient) throws(HealthStoreError) -> [HealthStatistics]
    /// Changes since `anchor` (`HKAnchoredObjectQuery`); throws ``HealthStoreError/anchorExpired(_:)``
    /// when tombstones after the anchor were purged.
    func changes(of types: Set<HealthObjectType>, since anchor: QueryAnchor?, limit: Int, as client: HealthClient) throws(HealthStoreError) -> ChangeBatch
    /// A stream that yields the changed type identifiers after every commit touching `types`
    /// (`HKObserverQuery`: fires on save or delete, carries no data).
    func observe(_ types: Set<HealthObjectType>) -> AsyncStream<Set<String>>
    /// Whether `client` may see any object of `types` (it may read one, or wrote objects itself); one that sees none
    /// is answered without reading any data.
    func seesAny(of types: Set<HealthObjectType>, as client: HealthClient) throws(HealthStoreError) -> Bool
    /// The client's share status for `type` (`authorizationStatus(for:)`).
    func authorizationStatus(for type: QuantityType, as client: HealthClient) throws(HealthStoreError) -> AuthorizationStatus
    /// Grants or revokes; only root or the admin group.
    func setAuthorization(_ grant: AuthorizationGrant, by client: HealthClient) throws(HealthStoreError)
    /// The stored grants of `uid` that allow anything, by type.
    func grants(of uid: UInt32) throws(HealthStoreError) -> [AuthorizationGrant]
    /// Write transactions committed since the store was opened — readings, revisions, deletions and grants alike: an
    /// answer read while it had one value is still the answer while it has it.
    var committedWrites: UInt64 { get }
}
