import Foundation

/// Queries (docs/reference/HEALTH-STORE.md §5); reads of non-readable types return only the caller's own writes.
extension HealthStore {
    public func samples(_ query: SampleQuery, as client: HealthClient) throws(HealthStoreError) -> [QuantitySample] {
        _ = try configuration.quantityTypes.type(query.type.identifier)
        guard let predicate = try visible(query.predicate, .quantity(query.type), client) else { return [] }
        var restricted = query
        restricted.predicate = predicate
        return try engine.samples(restricted)
    }

    /// Correlations readable as a whole, or the client's own; members of types the client may not
    /// read are dropped unless it wrote them (HealthKit: `HKCorrelationQuery`).
    public func correlations(_ query: CorrelationQuery, as client: HealthClient) throws(HealthStoreError) -> [Correlation] {
        guard configuration.correlationTypes.contains(query.type) else { throw .unknownType(query.type.identifier) }
        guard let predicate = try visible(query.predicate, .correlation(query.type), client) else { return [] }
        var restricted = query
        restricted.predicate = predicate
        return try engine.correlations(restricted).map(readableParts(of: query.type, client))
    }

    /// Drops the members and linked samples of a `type` correlation that `client` may not read — for every person it
    /// reads the correlations of — unless it wrote them (HealthKit: `HKCorrelationQuery`); queries and the change feed alike.
    private func readableParts(of type: CorrelationType, _ client: HealthClient) throws(HealthStoreError) -> (Correlation) -> Correlation {
        let own = configuration.source(for: client).bundleIdentifier
        let scope = try readScope(.correlation(type), client)
        var readable: [String: Bool] = [:]
        for member in type.memberTypes + [.heartRate] { readable[member.identifier] = try covers(member, scope, client) }
        return { correlation in
            let keep = { (s: QuantitySample) in readable[s.type.identifier] ?? false || s.sourceRevision?.source.bundleIdentifier == own }
            return correlation.with(objects: correlation.objects.filter(keep), linked: correlation.linkedSamples.filter(keep), sourceRevision: correlation.sharedRevision)
        }
    }

    public func statistics(of type: QuantityType, predicate: SamplePredicate, options: StatisticsOptions, as client: HealthClient) throws(HealthStoreError) -> HealthStatistics {
        _ = try configuration.quantityTypes.type(type.identifier)
        // One bucket over all time; the predicate's own date range still applies.
        let all = SamplePredicate.supportedDates
        guard let restricted = try visible(predicate, .quantity(type), client) else {
            return HealthStatistics(type: type, startDate: all.lowerBound, endDate: all.upperBound, all: .none, bySource: [:])
        }
        let buckets = try engine.statistics(of: type, predicate: restricted, options: options, boundaries: [all.lowerBound, all.upperBound])
        return buckets[0]
    }

    public func statisticsCollection(_ query: StatisticsCollectionQuery, as client: HealthClient) throws(HealthStoreError) -> [HealthStatistics] {
        _ = try configuration.quantityTypes.type(query.type.identifier)
        let predicate = try visible(query.predicate, .quantity(query.type), client)
        for date in [query.anchorDate, query.start, query.end] { try Self.checkSupported(date) }
        let boundaries = query.boundaries()
        guard let predicate else {
            return zip(boundaries, boundaries.dropFirst()).map { HealthStatistics(type: query.type, startDate: $0, endDate: $1, all: .none, bySource: [:]) }
        }
        return try engine.statistics(of: query.type, predicate: predicate, options: query.options, boundaries: boundaries)
    }

    public func changes(of types: Set<HealthObjectType>, since anchor: QueryAnchor?, limit: Int, as client: HealthClient) throws(HealthStoreError) -> ChangeBatch {
        for case .quantity(let q) in types { _ = try configuration.quantityTypes.type(q.identifier) }
        // A type the client sees nothing of is left out: the engine then reads only the anchor for it.
        let batch = try engine.changes(try changeFilters(Array(types), client), since: anchor, limit: max(1, limit))
        var trim: [CorrelationType: (Correlation) -> Correlation] = [:]
        for case .correlation(let type) in types { trim[type] = try readableParts(of: type, client) }
        let added = batch.added.map { object -> HealthObject in
            guard case .correlation(let correlation) = object, let readable = trim[correlation.type] else { return object }
            return .correlation(readable(correlation))
        }
        return ChangeBatch(added: added, deleted: batch.deleted, newAnchor: batch.newAnchor, hasMore: batch.hasMore)
    }
}
