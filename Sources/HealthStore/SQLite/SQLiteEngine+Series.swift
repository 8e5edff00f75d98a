import Foundation
import GRDB

/// Heart-rate series rows (migration v13; docs/health-store.md, "Heart-rate series"): saving a sensor's values many to
/// a row, finding one value by its sync identifier or UUID, and taking one out of its row. Reading them as samples is
/// SQL's (``SQLiteSchema/samples(series:)``), through the functions here.
extension SQLiteEngine {
    /// The SQL functions expanding series rows, for every connection: ``SQLiteSchema/seriesFunction`` and
    /// ``SQLiteSchema/seriesUUIDFunction``.
    static func seriesFunctions() -> [DatabaseFunction] {
        let expand = DatabaseFunction(SQLiteSchema.seriesFunction, argumentCount: 4, pure: true) { arguments in
            guard let blob = Data.fromDatabaseValue(arguments[0]), let start = Int64.fromDatabaseValue(arguments[1]),
                  let first = Int64.fromDatabaseValue(arguments[2]) else { return nil }
            let shared = SQLiteSeriesValue.sharedFields(String.fromDatabaseValue(arguments[3]))
            var out = "["
            for (index, value) in SQLiteSeriesValue.decode(blob, startMicros: start, firstSeq: first).enumerated() {
                out += index == 0 ? "[" : ",["
                out += String(value.micros)
                out += ","
                out += String(value.seq)
                out += ","
                out += Double(value.beatsPerMinute).description
                out += ","
                if let json = value.metadataJSON(shared) { SQLiteCoding.appendString(json, to: &out) } else { out += "null" }
                out += "]"
            }
            return out + "]"
        }
        let uuid = DatabaseFunction(SQLiteSchema.seriesUUIDFunction, argumentCount: 2, pure: true) { arguments in
            guard let syncIdentifier = String.fromDatabaseValue(arguments[0]), let micros = Int64.fromDatabaseValue(arguments[1]) else { return nil }
            return SQLiteCoding.blob(UUID.sensorValue(syncIdentifier: syncIdentifier, micros: micros))
        }
        return [expand, uuid]
    }

    /// Whether the store holds any series row of type `typeID` (any type: nil). Mostly not, and then reads run on
    /// `sample` alone, as before migration v13 — and a store from before it, opened read-only (not migrated), has no
    /// series table at all.
    static func hasSeries(_ db: Database, _ typeID: Int64? = nil) throws -> Bool {
        guard try db.tableExists("sample_series") else { return false }
        if let typeID {
            return try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sample_series WHERE type_id = ?)"), arguments: [typeID]) ?? false
        }
        return try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sample_series)")) ?? false
    }

    /// The series rows that may hold samples of `typeID` that `predicate` selects (``SQLiteSchema/seriesRows(_:from:before:)``
    /// narrowed by its dates, positions and UUIDs, and for the first `limit` in `sort`'s order by ``limitBound(_:_:_:_:sort:limit:)``),
    /// nil when none can (a series value belongs to no correlation).
    static func seriesRows(_ db: Database, _ typeID: Int64, _ predicate: SamplePredicate, sort: SampleSort? = nil, limit: Int? = nil) throws -> String? {
        guard !predicate.onlyCorrelated, try hasSeries(db, typeID) else { return nil }
        var range = Range(from: predicate.dateRange?.start.map(SQLiteCoding.micros), before: predicate.dateRange?.end.map(SQLiteCoding.micros))
        if let position = predicate.after.map({ SQLiteCoding.micros($0.startDate) }) { range.from = max(range.from ?? position, position) }
        if let position = predicate.before.map({ SQLiteCoding.micros($0.startDate) + 1 }) { range.before = min(range.before ?? position, position) }
        if let sort, let limit { range = try limitBound(db, typeID, predicate, range, sort: sort, limit: limit) }
        let (from, before) = (range.from, range.before)
        var rows = SQLiteSchema.seriesRows(typeID, from: from, before: before)
        if let uuids = predicate.uuids {
            let times = uuids.compactMap(\.sensorValueMicros)
            guard !times.isEmpty else { return nil }
            rows += " AND (" + times.sorted().map { SQLiteSchema.seriesRows(typeID, from: $0, before: $0 + 1) }.joined(separator: " OR ") + ")"
        }
        return rows
    }

    /// Times from and before, in microseconds; nil for open.
    struct Range {
        var from: Int64?
        var before: Int64?
    }

    /// `range` narrowed to the times the first `limit` values in `sort`'s order can have, when `predicate` filters the
    /// values by nothing their rows do not hold (sources, device, person, sensor contact): the rows are read in time
    /// order along `sample_series_type_start` until those wholly in `range` hold `limit` values. Oldest first, the
    /// first `limit` values are no later than the latest value of those rows; newest first, no earlier than the
    /// earliest start of those rows. Without it, the newest values of a year of heart rate (`HeartRates` on D-Bus) would
    /// expand every row of the year.
    private static func limitBound(_ db: Database, _ typeID: Int64, _ predicate: SamplePredicate, _ range: Range, sort: SampleSort, limit: Int) throws -> Range {
        var valuesOnly = predicate
        (valuesOnly.before, valuesOnly.after) = (nil, nil)  // bounds of the range already
        guard filtersRows(valuesOnly) else { return range }
        let rowFilter = SQLitePredicate(
            SamplePredicate(sourceBundleIdentifiers: predicate.sourceBundleIdentifiers, deviceIdentity: predicate.deviceIdentity,
                            metadata: predicate.metadata, deviceLocalIdentifier: predicate.deviceLocalIdentifier),
            alias: "r")
        let newestFirst = sort == .startDateDescending || sort == .endDateDescending
        var clauses = ["r.type_id = ?"]
        var arguments: StatementArguments = [typeID]
        if let from = range.from {
            clauses.append("r.start_at > ? AND r.end_at >= ?")
            arguments += [from - SQLiteSchema.rollupSlotMicros, from]
        }
        if let before = range.before {
            clauses.append("r.start_at < ?")
            arguments += [before]
        }
        let rows = try Row.fetchCursor(db, sql: """
            SELECT r.start_at, r.end_at, r.n FROM sample_series r WHERE \(clauses.joined(separator: " AND ")) AND \(rowFilter.sql)
            ORDER BY r.start_at \(newestFirst ? "DESC" : "ASC")
            """, arguments: arguments + rowFilter.arguments)
        var count = 0
        var latestEnd = Int64.min
        while let row = try rows.next() {
            let start: Int64 = row[0], end: Int64 = row[1], n: Int = row[2]
            latestEnd = max(latestEnd, end)
            guard start >= range.from ?? .min, end < range.before ?? .max else { continue }
            count += n
            if count >= limit {
                var bounded = range
                if newestFirst { bounded.from = max(range.from ?? start, start) } else { bounded.before = min(range.before ?? latestEnd + 1, latestEnd + 1) }
                return bounded
            }
        }
        return range
    }

    /// Whether `predicate` filters values by nothing but what their series rows hold — sources, device, person, sensor
    /// contact, dates —, so that a row lying wholly inside what it selects can be taken whole
    /// (``SQLiteSchema/statisticsSamples(rows:boundaries:whole:hint:)``, ``limitBound(_:_:_:_:sort:limit:)``).
    static func filtersRows(_ predicate: SamplePredicate) -> Bool {
        predicate.uuids == nil && predicate.before == nil && predicate.after == nil
            && predicate.metadata.keys.allSatisfy(SQLiteSeriesValue.rowKeys.map(\.name).contains)
    }

    /// The series rows that may hold the value timed `micros`, of any type.
    static func seriesRows(at micros: Int64) -> String {
        "r.type_id IN (SELECT id FROM sample_type) AND r.start_at > \(micros - SQLiteSchema.rollupSlotMicros) AND r.start_at <= \(micros) AND r.end_at >= \(micros)"
    }

    /// The stored series value with UUID `uuid`, as a `sample` row whose id names its series row (``seriesRowID(_:)``).
    func seriesValue(_ db: Database, uuid: UUID) throws -> SQLiteValues? {
        guard let micros = uuid.sensorValueMicros else { return nil }
        return try rows(db, from: "(\(SQLiteSchema.seriesValues(where: Self.seriesRows(at: micros)))) s", where: "s.uuid = ?", [SQLiteCoding.blob(uuid)]).first
    }

    /// The stored series value holding (source, sync identifier), as ``seriesValue(_:uuid:)`` gives it.
    func seriesValue(_ db: Database, sourceID: Int64, syncIdentifier: String) throws -> SQLiteValues? {
        guard let colon = syncIdentifier.lastIndex(of: ":"), let micros = Int64(syncIdentifier[syncIdentifier.index(after: colon)...]),
              let found = try seriesValue(db, uuid: .sensorValue(syncIdentifier: syncIdentifier, micros: micros)),
              found.syncIdentifier == syncIdentifier,
              try Int64.fetchOne(db.cachedStatement(sql: "SELECT source_id FROM sample_series WHERE id = ?"), arguments: [Self.seriesRowID(found.id)]) == sourceID
        else { return nil }
        return found
    }

    /// The series row of a series value's id (``SQLiteSchema/seriesValues(where:)``).
    static func seriesRowID(_ valueID: Int64) -> Int64 { -valueID / 65536 }

    /// Tombstones the series value timed `micros` of the series row `rowID` and takes it out of the row — the row
    /// rewritten without it, or deleted when it was the last —, and marks its rollup slot to be recomputed (migration
    /// v12); returns its type identifier.
    @discardableResult
    func removeSeriesValue(rowID: Int64, micros: Int64, _ ctx: SQLiteWriteContext) throws -> String {
        let db = ctx.db
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT r.type_id, r.source_id, r.part, r.start_at, r.first_seq, r.series_values, r.sync_prefix,
                \(SQLiteSchema.person("r.metadata")), t.identifier
            FROM sample_series r JOIN sample_type t ON t.id = r.type_id WHERE r.id = ?
            """), arguments: [rowID])!
        let typeID: Int64 = row[0], sourceID: Int64 = row[1], part: Int64 = row[2], prefix: String = row[6]
        var values = SQLiteSeriesValue.decode(row[5], startMicros: row[3], firstSeq: row[4])
        values.removeAll { $0.micros == micros }
        let syncIdentifier = prefix + String(micros)
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO tombstone (uuid, type_id, source_id, sync_identifier, sync_version, deleted_at, change_seq, person)
            VALUES (?, ?, ?, ?, 1, ?, ?, ?)
            """).execute(arguments: [
                SQLiteCoding.blob(UUID.sensorValue(syncIdentifier: syncIdentifier, micros: micros)), typeID, sourceID, syncIdentifier,
                ctx.now, ctx.nextSeq(), row[7] as String?,
            ])
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO sample_rollup_mark (type_id, part, slot, source_id) VALUES (?, ?, ?, ?)")
            .execute(arguments: [typeID, part, SQLiteWriteContext.slot(of: micros), sourceID])
        if values.isEmpty {
            try db.cachedStatement(sql: "DELETE FROM sample_series WHERE id = ?").execute(arguments: [rowID])
        } else {
            let summary = SeriesSummary(values)
            try db.cachedStatement(sql: """
                UPDATE sample_series SET start_at = ?, end_at = ?, n = ?, total = ?, lo = ?, hi = ?, last_value = ?, first_seq = ?,
                    last_seq = ?, series_values = ? WHERE id = ?
                """).execute(arguments: [
                    values[0].micros, values[values.count - 1].micros, values.count, summary.total, summary.lo, summary.hi,
                    summary.last, values[0].seq, values[values.count - 1].seq, SQLiteSeriesValue.encode(values), rowID,
                ])
        }
        return row[8]
    }

    /// Saves the samples `pending` holds (their places in the caller's batch, and their series values) in series rows,
    /// by the upsert rule (docs/reference/HEALTH-STORE.md §3): a value whose (source, sync identifier) is stored already
    /// — in a series row or in a row of its own, stored before migration v13 — or was given earlier in the batch is not
    /// stored again, however the values were grouped when it was; the others are stored one row per device, source,
    /// person, sensor contact and rollup slot, each with its change sequence, in time order. Returns each one's outcome.
    func saveSeries(_ pending: [(index: Int, sample: QuantitySample, value: SQLiteSeriesValue)], _ ctx: SQLiteWriteContext) throws -> [(Int, SaveOutcome<QuantitySample>)] {
        var outcomes: [(Int, SaveOutcome<QuantitySample>)] = []
        var seen = Set<String>()
        var groups: [SeriesKey: [(index: Int, sample: QuantitySample, value: SQLiteSeriesValue)]] = [:]
        var order: [SeriesKey] = []
        for item in pending {
            let syncIdentifier = item.sample.metadata.syncIdentifier!
            let typeID = try ctx.typeID(item.sample.type.identifier)
            let (revisionID, sourceID) = try ctx.revisionID(item.sample.sharedRevision!)
            if !seen.insert("\(sourceID) \(syncIdentifier)").inserted {
                outcomes.append((item.index, .alreadyStored(item.sample)))
                continue
            }
            if let stored = try ctx.storedKey(sourceID, syncIdentifier) {
                guard !stored.isCorrelation, stored.typeID == typeID else {
                    throw HealthStoreError.invalidMetadata(key: MetadataKey.syncIdentifier.name, reason: "'\(syncIdentifier)' is already used by an object of another type")
                }
                outcomes.append((item.index, .alreadyStored(try loadSamples(ctx.db, where: "s.id = ?", [stored.id])[0])))
                continue
            }
            var shared = HealthMetadata()
            for key in SQLiteSeriesValue.rowKeys { shared[key] = item.sample.metadata[key] }
            let key = SeriesKey(
                typeID: typeID, revisionID: revisionID, sourceID: sourceID, deviceID: try ctx.deviceID(item.sample.sharedDevice)!,
                prefix: String(syncIdentifier.dropLast(String(item.value.micros).count)), metadata: SQLiteCoding.json(shared),
                part: SQLiteSchema.rollupPart(correlated: false, contact: shared[.heartRateSensorContact]), slot: SQLiteWriteContext.slot(of: item.value.micros))
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(item)
        }
        // Values stored in series rows already: looked up a group at a time, each group's rows read once.
        for key in order {
            let stored = try storedSeriesValues(of: key, micros: groups[key]!.map(\.value.micros), ctx.db)
            guard !stored.isEmpty else { continue }
            groups[key]!.removeAll { item in
                guard let sample = stored[item.sample.metadata.syncIdentifier!] else { return false }
                outcomes.append((item.index, .alreadyStored(sample)))
                return true
            }
        }
        for key in order {
            var items = groups[key]!
            guard !items.isEmpty else { continue }
            items.sort { $0.value.micros < $1.value.micros }
            let first = ctx.nextSeqs(items.count)
            let values = items.enumerated().map { offset, item in
                var value = item.value
                value.seq = first + Int64(offset)
                return value
            }
            let summary = SeriesSummary(values)
            try ctx.db.cachedStatement(sql: """
                INSERT INTO sample_series (type_id, source_id, revision_id, device_id, sync_prefix, metadata, part, start_at, end_at,
                    n, total, lo, hi, last_value, first_seq, last_seq, created_at, series_values)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    key.typeID, key.sourceID, key.revisionID, key.deviceID, key.prefix, key.metadata, key.part, values[0].micros,
                    values[values.count - 1].micros, values.count, summary.total, summary.lo, summary.hi, summary.last, first,
                    values[values.count - 1].seq, ctx.now, SQLiteSeriesValue.encode(values),
                ])
            for value in values {
                ctx.addToRollup(typeID: key.typeID, part: key.part, sourceID: key.sourceID, startMicros: value.micros, value: Double(value.beatsPerMinute))
            }
            outcomes += items.map { ($0.index, .inserted($0.sample)) }
        }
        return outcomes
    }
}

extension SQLiteEngine {
    /// The samples stored in series rows of `key`'s type, source and sync identifier prefix at any of the times `micros`,
    /// by sync identifier: the rows that can hold them are read, and only when one does, expanded.
    fileprivate func storedSeriesValues(of key: SeriesKey, micros: [Int64], _ db: Database) throws -> [String: QuantitySample] {
        guard let first = micros.min(), let last = micros.max() else { return [:] }
        let wanted = Set(micros)
        var holding: [Int64] = []
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT r.id, r.start_at, r.first_seq, r.series_values FROM sample_series r
            WHERE r.type_id = ? AND r.start_at > ? AND r.start_at <= ? AND r.end_at >= ? AND r.source_id = ? AND r.sync_prefix = ?
            """), arguments: [key.typeID, first - SQLiteSchema.rollupSlotMicros, last, first, key.sourceID, key.prefix]) {
            if SQLiteSeriesValue.decode(row[3], startMicros: row[1], firstSeq: row[2]).contains(where: { wanted.contains($0.micros) }) {
                holding.append(row[0])
            }
        }
        guard !holding.isEmpty else { return [:] }
        let rows = SQLiteSchema.seriesValues(where: "r.id IN (\(holding.map(String.init).joined(separator: ",")))")
        let samples = try loadSamples(db, from: "(\(rows)) s", where: "s.start_at IN (\(SQLitePredicate.marks(wanted.count)))", StatementArguments(Array(wanted)))
        return Dictionary(samples.map { ($0.metadata.syncIdentifier!, $0) }, uniquingKeysWith: { a, _ in a })
    }
}

/// What the values of one series row share (``SQLiteEngine/saveSeries(_:_:)``).
private struct SeriesKey: Hashable {
    let typeID: Int64
    let revisionID: Int64
    let sourceID: Int64
    let deviceID: Int64
    let prefix: String
    let metadata: String?
    let part: Int64
    let slot: Int64
}

/// A series row's sum, minimum, maximum and latest value (its values in time order), as the rollup keeps them.
private struct SeriesSummary {
    var total = 0.0
    var lo = Double.infinity
    var hi = -Double.infinity
    var last = 0.0

    init(_ values: [SQLiteSeriesValue]) {
        for value in values {
            let v = Double(value.beatsPerMinute)
            total += v
            lo = min(lo, v)
            hi = max(hi, v)
            last = v
        }
    }
}
