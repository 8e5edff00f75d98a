import Foundation
import Synchronization
import Testing
@testable import HealthStore

/// An engine that notes each call that reads samples, then passes it on; the change feed's with the types it asks for.
final class DataReadCounter: HealthStoreEngine {
    let inner: SQLiteEngine
    private let calls = Mutex<[String]>([])
    var reads: [String] { calls.withLock { $0 } }

    init(_ inner: SQLiteEngine) { self.inner = inner }

    private func note(_ call: String) { calls.withLock { $0.append(call) } }

    func samples(_ query: SampleQuery) throws(HealthStoreError) -> [QuantitySample] {
        note("samples")
        return try inner.samples(query)
    }

    func correlations(_ query: CorrelationQuery) throws(HealthStoreError) -> [Correlation] {
        note("correlations")
        return try inner.correlations(query)
    }

    func correlationRows(_ query: CorrelationQuery, columns: CorrelationColumns, valueSources: [String?]) throws(HealthStoreError) -> [CorrelationRow] {
        note("correlationRows")
        return try inner.correlationRows(query, columns: columns, valueSources: valueSources)
    }

    func statistics(of type: QuantityType, predicate: SamplePredicate, options: StatisticsOptions, boundaries: [Date]) throws(HealthStoreError) -> [HealthStatistics] {
        note("statistics")
        return try inner.statistics(of: type, predicate: predicate, options: options, boundaries: boundaries)
    }

    func changes(_ filters: [String: ChangeScope], since anchor: QueryAnchor?, limit: Int) throws(HealthStoreError) -> ChangeBatch {
        if !filters.isEmpty { note("changes of \(filters.keys.sorted())") }
        return try inner.changes(filters, since: anchor, limit: limit)
    }

    func correlationRowChanges(
        _ filters: [String: ChangeScope], since anchor: QueryAnchor?, limit: Int, columns: CorrelationColumns, valueSources: [String?]
    ) throws(HealthStoreError) -> CorrelationRowBatch {
        if !filters.isEmpty { note("correlationRowChanges of \(filters.keys.sorted())") }
        return try inner.correlationRowChanges(filters, since: anchor, limit: limit, columns: columns, valueSources: valueSources)
    }

    func saveSamples(_ samples: [QuantitySample], at now: Date) throws(HealthStoreError) -> [SaveOutcome<QuantitySample>] {
        try inner.saveSamples(samples, at: now)
    }

    func saveCorrelations(_ correlations: [Correlation], enteredBy uid: UInt32?, at now: Date) throws(HealthStoreError) -> [SaveOutcome<Correlation>] {
        try inner.saveCorrelations(correlations, enteredBy: uid, at: now)
    }

    func delete(_ uuids: [UUID], ownedBy source: String, at now: Date) throws(HealthStoreError) -> [String] {
        try inner.delete(uuids, ownedBy: source, at: now)
    }

    func deleteCorrelations(of type: String, syncIdentifiers: [String], source: String?, people: Set<String>?, by uid: UInt32, at now: Date) throws(HealthStoreError) -> [String] {
        try inner.deleteCorrelations(of: type, syncIdentifiers: syncIdentifiers, source: source, people: people, by: uid, at: now)
    }

    func reviseCorrelations(
        of type: String, syncIdentifiers: [String], source: String?, people: Set<String>?, changes: [MetadataKey: MetadataValue?],
        by uid: UInt32, at now: Date
    ) throws(HealthStoreError) -> [Correlation] {
        try inner.reviseCorrelations(of: type, syncIdentifiers: syncIdentifiers, source: source, people: people, changes: changes, by: uid, at: now)
    }

    func editHistory(of type: String, syncIdentifier: String, scope: ChangeScope) throws(HealthStoreError) -> [EditRecord] {
        try inner.editHistory(of: type, syncIdentifier: syncIdentifier, scope: scope)
    }

    func purgeTombstones(deletedBefore cutoff: Date) throws(HealthStoreError) -> Int { try inner.purgeTombstones(deletedBefore: cutoff) }
    func storeIdentifier() throws(HealthStoreError) -> UUID { try inner.storeIdentifier() }
    var committedWrites: UInt64 { inner.committedWrites }
    func knowsSource(_ bundleIdentifier: String) throws(HealthStoreError) -> Bool { try inner.knowsSource(bundleIdentifier) }
    func grant(uid: UInt32, type: QuantityType) throws(HealthStoreError) -> AuthorizationGrant? { try inner.grant(uid: uid, type: type) }
    func setGrant(_ grant: AuthorizationGrant) throws(HealthStoreError) { try inner.setGrant(grant) }
}

/// A client that may read nothing and wrote nothing is answered from its grants alone (docs/health-store.md,
/// "Authorization"): whatever the store holds, it costs no read of the data.
@Suite struct UngrantedReaderTests {
    static let columns = CorrelationColumns(values: [.bloodPressureSystolic, .heartRate], metadata: [.deviceUserID])

    func store() throws -> (HealthStore, DataReadCounter) {
        let configuration = StoreConfiguration()
        let engine = DataReadCounter(try SQLiteEngine(inMemoryWith: configuration))
        let store = try HealthStore(engine: engine, configuration: configuration)
        _ = try store.saveBloodPressure((0 ..< 20).map { Fixture.reading($0) }, as: Fixture.daemon)
        _ = try store.save((0 ..< 20).map { Fixture.heartRate(60, at: Fixture.t0.addingTimeInterval(Double($0))) }, as: Fixture.daemon)
        return (store, engine)
    }

    /// Every query of the store, as `client`; what each found.
    func everyQuery(_ store: HealthStore, as client: HealthClient) throws -> [Int] {
        let week = StatisticsCollectionQuery(
            type: .heartRate, options: .discrete, anchorDate: Fixture.t0, interval: .day, timeZone: TimeZone(identifier: "UTC")!,
            start: Fixture.t0, end: Fixture.t0.addingTimeInterval(7 * 86_400))
        return [
            try store.samples(SampleQuery(type: .heartRate), as: client).count,
            try store.correlations(CorrelationQuery(type: .bloodPressure), as: client).count,
            try store.correlationRows(CorrelationQuery(type: .bloodPressure), columns: Self.columns, as: client).count,
            try store.statistics(of: .bloodPressureSystolic, predicate: .all, options: .discrete, as: client).all.sampleCount,
            try store.statisticsCollection(week, as: client).map(\.all.sampleCount).reduce(0, +),
            try store.changes(of: [.quantity(.heartRate), .correlation(.bloodPressure)], since: nil, limit: 100, as: client).added.count,
            try store.correlationRowChanges(of: .bloodPressure, columns: Self.columns, since: nil, limit: 100, as: client).added.count,
        ]
    }

    @Test("Without a grant and without writes of its own: every query answers nothing, and reads no sample")
    func answeredWithoutReadingData() throws {
        let (store, engine) = try store()
        #expect(try !store.seesAny(of: [.quantity(.heartRate), .correlation(.bloodPressure)], as: Fixture.alice))
        #expect(try everyQuery(store, as: Fixture.alice) == [0, 0, 0, 0, 0, 0, 0])
        #expect(engine.reads.isEmpty, "\(engine.reads)")
        // The feed's anchor is the store's newest, as for a reader who saw everything.
        let everything = try store.changes(of: [.quantity(.heartRate)], since: nil, limit: 1000, as: Fixture.daemon).newAnchor
        #expect(try store.changes(of: [.quantity(.heartRate)], since: nil, limit: 100, as: Fixture.alice).newAnchor == everything)
        #expect(try store.correlationRowChanges(of: .bloodPressure, columns: Self.columns, since: nil, limit: 100, as: Fixture.alice).newAnchor == everything)
        // Anchors older than the deletions the store remembers still expire, grants or not.
        let clock = TestClock()
        let purged = try Fixture.store(clock: clock, retention: 86_400)
        let sample = Fixture.heartRate(60, at: Fixture.t0)
        _ = try purged.save([sample, Fixture.heartRate(61, at: Fixture.t0)], as: Fixture.daemon)
        _ = try purged.delete([sample.uuid], as: Fixture.daemon)
        clock.advance(by: 2 * 86_400)
        #expect(try purged.purgeExpiredTombstones() == 1)
        #expect(throws: HealthStoreError.anchorExpired(QueryAnchor(rawValue: 1))) {
            try purged.changes(of: [.quantity(.heartRate)], since: QueryAnchor(rawValue: 1), limit: 10, as: Fixture.alice)
        }
    }

    @Test("A grant to read, or objects of its own, and the store reads the data again")
    func grantsAndOwnWritesAreRead() throws {
        let (store, engine) = try store()
        try store.setAuthorization(AuthorizationGrant(uid: 1000, type: .heartRate, canShare: true, canRead: false), by: Fixture.root)
        _ = try store.save([Fixture.heartRate(70, at: Fixture.t0)], as: Fixture.alice)
        #expect(try store.seesAny(of: [.correlation(.bloodPressure)], as: Fixture.alice), "its own objects, were there any")
        #expect(try store.samples(SampleQuery(type: .heartRate), as: Fixture.alice).map(\.quantity.value) == [70])
        #expect(engine.reads == ["samples"])
        #expect(try store.seesAny(of: [.quantity(.heartRate)], as: Fixture.bob) == false)
        try store.setAuthorization(AuthorizationGrant(uid: 1001, type: .heartRate, canShare: false, canRead: true), by: Fixture.root)
        #expect(try store.seesAny(of: [.quantity(.heartRate)], as: Fixture.bob))
        #expect(try store.samples(SampleQuery(type: .heartRate), as: Fixture.bob).count == 41)
    }
}
