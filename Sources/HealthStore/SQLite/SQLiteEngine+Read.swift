import Foundation
import GRDB

/// Sample and correlation queries (HEALTH-STORE.md §5) and row decoding. Quantity and correlation
/// types have distinct `type_id`s, so `type_id = ?` alone selects the right kind of row and the
/// query stays on the index `sample_type_start`.
extension SQLiteEngine {
    public func samples(_ query: SampleQuery) throws(HealthStoreError) -> [QuantitySample] {
        try read { db in
            guard let typeID = try Self.typeID(db, query.type.identifier) else { return [] }
            let predicate = SQLitePredicate(query.predicate)
            return try loadSamples(
                db, where: "s.type_id = ? AND \(predicate.sql)",
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
        s.id, s.uuid, t.identifier, s.value, s.start_at, s.end_at, s.time_zone, s.revision_id, s.device_id,
        s.metadata, s.correlation_id, s.is_member, s.is_correlation
        """

    func rows(_ db: Database, where condition: String, _ arguments: StatementArguments, order: String? = nil, limit: Int? = nil) throws -> [Row] {
        var sql = "SELECT \(Self.columns) FROM sample s JOIN sample_type t ON t.id = s.type_id WHERE \(condition)"
        if let order { sql += " ORDER BY \(order)" }
        if let limit { sql += " LIMIT \(max(0, limit))" }
        return try Row.fetchAll(db, sql: sql, arguments: arguments)
    }

    func loadSamples(_ db: Database, where condition: String, _ arguments: StatementArguments, order: String? = nil, limit: Int? = nil) throws -> [QuantitySample] {
        let decoder = SQLiteRowDecoder(db: db, engine: self)
        return try rows(db, where: condition, arguments, order: order, limit: limit).compactMap(decoder.sample)
    }

    /// Correlations with all their members and linked samples (two queries).
    func loadCorrelations(_ db: Database, where condition: String, _ arguments: StatementArguments, order: String? = nil, limit: Int? = nil) throws -> [Correlation] {
        let decoder = SQLiteRowDecoder(db: db, engine: self)
        let parents = try rows(db, where: condition, arguments, order: order, limit: limit)
        guard !parents.isEmpty else { return [] }
        let ids: [Int64] = parents.map { $0[0] }
        var children: [Int64: [Row]] = [:]
        for row in try rows(db, where: "s.correlation_id IN (\(SQLitePredicate.marks(ids.count)))", StatementArguments(ids), order: "s.id") {
            children[row[10], default: []].append(row)
        }
        return try parents.compactMap { row in
            let kids = children[row[0]] ?? []
            let members = try kids.filter { $0[11] as Bool }.compactMap(decoder.sample)
            let linked = try kids.filter { !($0[11] as Bool) }.compactMap(decoder.sample)
            return try decoder.correlation(row, members: members, linked: linked)
        }
    }
}

/// Decodes `sample` rows selected with ``SQLiteEngine/columns``, caching devices and revisions.
final class SQLiteRowDecoder {
    let db: Database
    let engine: SQLiteEngine
    private var devices: [Int64: HealthDevice] = [:]
    private var revisions: [Int64: SourceRevision] = [:]

    init(db: Database, engine: SQLiteEngine) {
        self.db = db
        self.engine = engine
    }

    func sample(_ row: Row) throws -> QuantitySample? {
        guard let type = try? engine.types.type(row[2]) else { return nil }
        return QuantitySample(
            uuid: SQLiteCoding.uuid(row[1]), type: type, quantity: HealthQuantity(unit: type.canonicalUnit, doubleValue: row[3]),
            start: SQLiteCoding.date(row[4]), end: SQLiteCoding.date(row[5]), timeZoneIdentifier: row[6],
            device: try device(row[8]), metadata: SQLiteCoding.metadata(row[9], registry: engine.metadataKeys),
            sourceRevision: try revision(row[7]))
    }

    func correlation(_ row: Row, members: [QuantitySample], linked: [QuantitySample]) throws -> Correlation? {
        guard let type = engine.correlationTypes[row[2]] else { return nil }
        return Correlation(
            uuid: SQLiteCoding.uuid(row[1]), type: type, start: SQLiteCoding.date(row[4]), end: SQLiteCoding.date(row[5]),
            objects: members, linkedSamples: linked, timeZoneIdentifier: row[6], device: try device(row[8]),
            metadata: SQLiteCoding.metadata(row[9], registry: engine.metadataKeys), sourceRevision: try revision(row[7]))
    }

    private func device(_ id: Int64?) throws -> HealthDevice? {
        guard let id else { return nil }
        if let cached = devices[id] { return cached }
        let payload = try String.fetchOne(db, sql: "SELECT payload FROM device WHERE id = ?", arguments: [id])
        let device = payload.flatMap(SQLiteCoding.device)
        devices[id] = device
        return device
    }

    private func revision(_ id: Int64) throws -> SourceRevision? {
        if let cached = revisions[id] { return cached }
        guard let row = try Row.fetchOne(db, sql: """
            SELECT src.bundle_identifier, src.name, r.version, r.os_version, r.product_type
            FROM source_revision r JOIN source src ON src.id = r.source_id WHERE r.id = ?
            """, arguments: [id])
        else { return nil }
        let revision = SourceRevision(source: HealthSource(bundleIdentifier: row[0], name: row[1]), version: row[2], operatingSystemVersion: row[3], productType: row[4])
        revisions[id] = revision
        return revision
    }
}
