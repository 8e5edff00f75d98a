import Foundation
import GRDB

/// State of one write transaction: id caches for types, sources, revisions and devices, and the
/// change counter, read once and written back before commit (one writer, so gap-free and
/// commit-ordered: HEALTH-STORE.md §14 trap 1).
final class SQLiteWriteContext {
    let db: Database
    let now: Int64
    private var seq: Int64
    private var typeIDs: [String: Int64] = [:]
    private var sourceIDs: [String: Int64] = [:]
    private var revisionIDs: [SourceRevision: Int64] = [:]
    private var deviceIDs: [HealthDevice: Int64] = [:]

    init(_ db: Database, now: Date) throws {
        self.db = db
        self.now = SQLiteCoding.micros(now)
        seq = try Int64.fetchOne(db, sql: "SELECT change_seq FROM store_state WHERE id = 1") ?? 0
    }

    func nextSeq() -> Int64 {
        seq += 1
        return seq
    }

    /// Stores the counter; call last in the transaction.
    func finish() throws {
        try db.execute(sql: "UPDATE store_state SET change_seq = ? WHERE id = 1", arguments: [seq])
    }

    func typeID(_ identifier: String) throws -> Int64 {
        if let id = typeIDs[identifier] { return id }
        try db.execute(sql: "INSERT OR IGNORE INTO sample_type (identifier) VALUES (?)", arguments: [identifier])
        let id = try Int64.fetchOne(db, sql: "SELECT id FROM sample_type WHERE identifier = ?", arguments: [identifier])!
        typeIDs[identifier] = id
        return id
    }

    func sourceID(_ source: HealthSource) throws -> Int64 {
        if let id = sourceIDs[source.bundleIdentifier] { return id }
        try db.execute(sql: "INSERT OR IGNORE INTO source (bundle_identifier, name) VALUES (?, ?)", arguments: [source.bundleIdentifier, source.name])
        let id = try Int64.fetchOne(db, sql: "SELECT id FROM source WHERE bundle_identifier = ?", arguments: [source.bundleIdentifier])!
        sourceIDs[source.bundleIdentifier] = id
        return id
    }

    private var lastRevision: (SourceRevision, Int64)?
    private var lastDevice: (HealthDevice, Int64)?

    func revisionID(_ revision: SourceRevision) throws -> Int64 {
        if let (last, id) = lastRevision, last == revision { return id }
        if let id = revisionIDs[revision] {
            lastRevision = (revision, id)
            return id
        }
        let sourceID = try sourceID(revision.source)
        let fingerprint = [revision.source.bundleIdentifier, revision.version ?? "", revision.operatingSystemVersion ?? "", revision.productType ?? ""].joined(separator: "\u{1F}")
        try db.execute(
            sql: "INSERT OR IGNORE INTO source_revision (source_id, version, os_version, product_type, fingerprint) VALUES (?, ?, ?, ?, ?)",
            arguments: [sourceID, revision.version, revision.operatingSystemVersion, revision.productType, fingerprint])
        let id = try Int64.fetchOne(db, sql: "SELECT id FROM source_revision WHERE fingerprint = ?", arguments: [fingerprint])!
        revisionIDs[revision] = id
        lastRevision = (revision, id)
        return id
    }

    func deviceID(_ device: HealthDevice?) throws -> Int64? {
        guard let device else { return nil }
        if let (last, id) = lastDevice, last == device { return id }
        if let id = deviceIDs[device] {
            lastDevice = (device, id)
            return id
        }
        let payload = SQLiteCoding.json(device)
        try db.execute(sql: "INSERT OR IGNORE INTO device (identity, payload) VALUES (?, ?)", arguments: [device.identity, payload])
        let id = try Int64.fetchOne(db, sql: "SELECT id FROM device WHERE payload = ?", arguments: [payload])!
        deviceIDs[device] = id
        lastDevice = (device, id)
        return id
    }
}
