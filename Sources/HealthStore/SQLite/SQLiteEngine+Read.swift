import Foundation
import GRDB

/// Sample and correlation queries (docs/reference/HEALTH-STORE.md §5) and row decoding. Quantity and correlation
/// types have distinct `type_id`s, so `type_id = ?` alone selects the right kind of row and the
/// query stays on the index `sample_type_start`.
extension SQLiteEngine {
    public func samples(_ query: SampleQuery) throws(HealthStoreError) -> [QuantitySample] {
        try read { db in
            guard let typeID = try Self.typeID(db, query.type.identifier) else { return [] }
            let predicate = SQLitePredicate(query.predicate)
            return try loadSamples(
                db, from: SQLiteSchema.samples(series: try Self.seriesRows(db, typeID, query.predicate, sort: query.sort, limit: query.limit)), where: "s.type_id = ? AND \(predicate.sql)",
                [typeID] + predicate.arguments, order: SQLitePredicate.order(query.sort), limit: query.limit)
        }
    }

    public func correlations(_ query: CorrelationQuery) throws(HealthStoreError) -> [Correlation] {
        try read { db in
            guard let typeID = try Self.typeID(db, query.type.identifier) else { return [] }
            let predicate = SQLitePredicate(query.predicate)
            return try loadCorrelations(
                db, where: "s.type_id = ? AND \(predicate.sql)",
                [typeID] + predicate.arguments, order: SQLitePredicate.order(query.sort), limit: query.limit)
        }
    }

    static func typeID(_ db: Database, _ identifier: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM sample_type WHERE identifier = ?"), arguments: [identifier])
    }

    static let columns = """
        s.id, s.uuid, s.type_id, s.value, s.start_at, s.end_at, s.time_zone, s.revision_id, s.device_id,
        s.metadata, s.correlation_id, s.is_member, s.is_correlation, s.sync_identifier, s.sync_version
        """

    /// Rows as plain storage values: one non-generic conversion per row instead of a generic
    /// `Row` subscript per column (those do runtime metadata look-ups across the module boundary).
    /// `cached` keeps the prepared statement for the next query with the same SQL (GRDB's
    /// statement cache, which never shrinks: only for SQL from a small set of texts).
    /// `table` is the table expression of the rows, aliased `s` (``SQLiteSchema/samples(series:)``).
    func rows(
        _ db: Database, from table: String = "sample s", where condition: String, _ arguments: StatementArguments, order: String? = nil,
        limit: Int? = nil, cached: Bool = false
    ) throws -> [SQLiteValues] {
        var sql = "SELECT \(Self.columns) FROM \(table) WHERE \(condition)"
        if let order { sql += " ORDER BY \(order)" }
        if let limit { sql += " LIMIT \(max(0, limit))" }
        let statement = try cached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        return try Array(Row.fetchCursor(statement, arguments: arguments).map(SQLiteValues.init))
    }

    func loadSamples(
        _ db: Database, from table: String = "sample s", where condition: String, _ arguments: StatementArguments, order: String? = nil, limit: Int? = nil
    ) throws -> [QuantitySample] {
        let decoder = SQLiteRowDecoder(db: db, engine: self)
        return try rows(db, from: table, where: condition, arguments, order: order, limit: limit).compactMap(decoder.sample)
    }

    /// Correlations with all their members and linked samples (two queries). A caller loading one correlation after
    /// another in a transaction, with the same `condition`, passes `shared`: its decoder keeps the devices, revisions
    /// and types it decoded, and the statement is kept prepared (`rows(…cached: true)`).
    func loadCorrelations(
        _ db: Database, where condition: String, _ arguments: StatementArguments, order: String? = nil, limit: Int? = nil,
        decoder shared: SQLiteRowDecoder? = nil
    ) throws -> [Correlation] {
        let decoder = shared ?? SQLiteRowDecoder(db: db, engine: self)
        let parents = try rows(db, where: condition, arguments, order: order, limit: limit, cached: shared != nil)
        guard !parents.isEmpty else { return [] }
        // The id list padded to a power of two with its last id, so that a few cached statements
        // serve every query (preparing this one was an eighth of a last-100 query, callgrind).
        var ids: [Int64] = parents.map { $0.id }
        ids += repeatElement(ids[ids.count - 1], count: (1 << (Int.bitWidth - (ids.count - 1).leadingZeroBitCount)) - ids.count)
        // Without ORDER BY, SQLite reads the rows off `sample_correlation` without sorting them all; each
        // correlation's own rows are put in id order below.
        var children: [Int64: [SQLiteValues]] = [:]
        for row in try rows(db, where: "s.correlation_id IN (\(SQLitePredicate.marks(ids.count)))", StatementArguments(ids), cached: true) {
            children[row.correlationID!, default: []].append(row)
        }
        return try parents.compactMap { row in
            let kids = (children[row.id] ?? []).sorted { $0.id < $1.id }
            let members = try kids.filter { $0.isMember }.compactMap(decoder.sample)
            let linked = try kids.filter { !$0.isMember }.compactMap(decoder.sample)
            return try decoder.correlation(row, members: members, linked: linked)
        }
    }
}

/// Decodes `sample` rows selected with ``SQLiteEngine/columns``, caching devices and revisions.
final class SQLiteRowDecoder {
    let db: Database
    let engine: SQLiteEngine
    private var devices: [Int64: SharedValue<HealthDevice>] = [:]
    private var revisions: [Int64: SharedValue<SourceRevision>] = [:]

    init(db: Database, engine: SQLiteEngine) {
        self.db = db
        self.engine = engine
    }

    private var quantityTypes: [Int64: QuantityType] = [:]
    private var typeIdentifiers: [Int64: String] = [:]
    private var metadataCache: [String: HealthMetadata] = [:]
    /// The last metadata decoded: neighbouring rows (a reading's members) mostly share it, and
    /// comparing the text is cheaper than hashing it.
    private var lastMetadata: (json: String, metadata: HealthMetadata)?

    /// Metadata from the JSON column (decoded once per distinct text) plus the sync columns.
    private func metadata(_ row: SQLiteValues) -> HealthMetadata {
        var metadata: HealthMetadata
        if let json = row.metadata {
            if let last = lastMetadata, last.json == json {
                metadata = last.metadata
            } else if let cached = metadataCache[json] {
                metadata = cached
                lastMetadata = (json, cached)
            } else {
                metadata = SQLiteCoding.metadata(json, registry: engine.metadataKeys)
                if metadataCache.count < 4096 { metadataCache[json] = metadata }
                lastMetadata = (json, metadata)
            }
        } else {
            metadata = HealthMetadata()
        }
        if let syncIdentifier = row.syncIdentifier, let syncVersion = row.syncVersion {
            metadata.syncIdentifier = syncIdentifier
            metadata.syncVersion = syncVersion
        }
        return metadata
    }

    /// The identifier of a `sample_type` row (a handful per store, each read once).
    private func typeIdentifier(_ id: Int64) throws -> String? {
        if let cached = typeIdentifiers[id] { return cached }
        let identifier = try String.fetchOne(db.cachedStatement(sql: "SELECT identifier FROM sample_type WHERE id = ?"), arguments: [id])
        typeIdentifiers[id] = identifier
        return identifier
    }

    func sample(_ row: SQLiteValues) throws -> QuantitySample? {
        let type: QuantityType
        if let cached = quantityTypes[row.typeID] {
            type = cached
        } else {
            guard let identifier = try typeIdentifier(row.typeID), let found = try? engine.types.type(identifier) else { return nil }
            quantityTypes[row.typeID] = found
            type = found
        }
        return QuantitySample(
            uuid: SQLiteCoding.uuid(row.uuid), type: type, quantity: HealthQuantity(unit: type.canonicalUnit, doubleValue: row.value ?? .nan),
            start: SQLiteCoding.date(row.start), end: SQLiteCoding.date(row.end), timeZoneIdentifier: row.timeZone,
            sharedDevice: try device(row.deviceID), metadata: metadata(row), sharedRevision: try revision(row.revisionID))
    }

    func correlation(_ row: SQLiteValues, members: [QuantitySample], linked: [QuantitySample]) throws -> Correlation? {
        guard let identifier = try typeIdentifier(row.typeID), let type = engine.correlationTypes[identifier] else { return nil }
        return Correlation(
            uuid: SQLiteCoding.uuid(row.uuid), type: type, start: SQLiteCoding.date(row.start), end: SQLiteCoding.date(row.end),
            objects: members, linkedSamples: linked, timeZoneIdentifier: row.timeZone, sharedDevice: try device(row.deviceID),
            metadata: metadata(row), sharedRevision: try revision(row.revisionID))
    }

    private func device(_ id: Int64?) throws -> SharedValue<HealthDevice>? {
        guard let id else { return nil }
        if let cached = devices[id] { return cached }
        let payload = try String.fetchOne(db.cachedStatement(sql: "SELECT payload FROM device WHERE id = ?"), arguments: [id])
        let device = payload.flatMap(SQLiteCoding.device).map(SharedValue.init)
        devices[id] = device
        return device
    }

    private func revision(_ id: Int64) throws -> SharedValue<SourceRevision>? {
        if let cached = revisions[id] { return cached }
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT src.bundle_identifier, src.name, r.version, r.os_version, r.product_type
            FROM source_revision r JOIN source src ON src.id = r.source_id WHERE r.id = ?
            """), arguments: [id])
        else { return nil }
        let revision = SharedValue(SourceRevision(source: HealthSource(bundleIdentifier: row[0], name: row[1]), version: row[2], operatingSystemVersion: row[3], productType: row[4]))
        revisions[id] = revision
        return revision
    }
}

/// One `sample` row selected with ``SQLiteEngine/columns``, read with GRDB's inlinable typed
/// subscripts (specialized here, no per-column existentials).
struct SQLiteValues {
    let id: Int64
    let uuid: Data
    let typeID: Int64
    let value: Double?
    let start: Int64
    let end: Int64
    let timeZone: String?
    let revisionID: Int64
    let deviceID: Int64?
    let metadata: String?
    let correlationID: Int64?
    let isMember: Bool
    let isCorrelation: Bool
    let syncIdentifier: String?
    let syncVersion: Int64?

    init(_ row: Row) {
        id = row[0]
        uuid = row[1]
        typeID = row[2]
        value = row[3]
        start = row[4]
        end = row[5]
        timeZone = row[6]
        revisionID = row[7]
        deviceID = row[8]
        metadata = row[9]
        correlationID = row[10]
        isMember = row[11]
        isCorrelation = row[12]
        syncIdentifier = row[13]
        syncVersion = row[14]
    }
}
