/// Flat reads (``CorrelationColumns``) under the same rules as object reads (docs/reference/HEALTH-STORE.md §5):
/// correlations of a type the client may not read are only its own, and so are the values of a member or linked
/// type it may not read.
extension HealthStore {
    public func correlationRows(_ query: CorrelationQuery, columns: CorrelationColumns, as client: HealthClient) throws(HealthStoreError) -> [CorrelationRow] {
        guard configuration.correlationTypes.contains(query.type) else { throw .unknownType(query.type.identifier) }
        guard let predicate = try visible(query.predicate, .correlation(query.type), client) else { return [] }
        var restricted = query
        restricted.predicate = predicate
        return try engine.correlationRows(restricted, columns: columns, valueSources: valueSources(columns, of: query.type, client))
    }

    public func correlationRowChanges(
        of type: CorrelationType, columns: CorrelationColumns, since anchor: QueryAnchor?, limit: Int, as client: HealthClient
    ) throws(HealthStoreError) -> CorrelationRowBatch {
        guard configuration.correlationTypes.contains(type) else { throw .unknownType(type.identifier) }
        let filters = try changeFilters([.correlation(type)], client)
        return try engine.correlationRowChanges(filters, since: anchor, limit: max(1, limit), columns: columns, valueSources: valueSources(columns, of: type, client))
    }

    /// Per value column, nil when the client may read its type for everyone whose `type` correlations it reads, else
    /// the client's own source.
    private func valueSources(_ columns: CorrelationColumns, of type: CorrelationType, _ client: HealthClient) throws(HealthStoreError) -> [String?] {
        let own = configuration.source(for: client).bundleIdentifier
        let scope = try readScope(.correlation(type), client)
        var sources: [String?] = []
        for value in columns.values { sources.append(try covers(value, scope, client) ? nil : own) }
        return sources
    }
}
