import Foundation
import GRDB

/// Deleting many correlations in one transaction with set-wide statements (docs/health-store.md, "Deleting on request"):
/// the rows are tombstoned in one `INSERT … SELECT` and deleted in one `DELETE`, their ids passed as one JSON array,
/// instead of three statements a row (``tombstoneAndDelete(rowID:_:)``); the tombstones and change sequences are the
/// same, in the same order.
extension SQLiteEngine {
    /// The rows of the correlations named by the JSON array `?1`, in deletion order: each correlation's members and linked
    /// samples by id, then the correlation; with their type identifiers.
    private static let deletionOrderSQL = """
        SELECT r.id, t.identifier FROM (
            SELECT j.key AS k, 0 AS last, s.id AS id, s.type_id AS type_id FROM json_each(?1) j CROSS JOIN sample s ON s.correlation_id = j.value
            UNION ALL
            SELECT j.key, 1, s.id, s.type_id FROM json_each(?1) j CROSS JOIN sample s ON s.id = j.value
        ) r CROSS JOIN sample_type t ON t.id = r.type_id
        ORDER BY r.k, r.last, r.id
        """

    /// ``tombstoneSQL``'s tombstone of each row named by the JSON array `?1`, its change sequence `?3` plus its place
    /// in the array.
    private static let tombstoneManySQL = """
        INSERT OR REPLACE INTO tombstone (uuid, type_id, source_id, sync_identifier, sync_version, deleted_at, change_seq, person)
        SELECT s.uuid, s.type_id, s.source_id, s.sync_identifier,
            CASE WHEN s.sync_identifier IS NULL THEN NULL ELSE coalesce(s.sync_version, 0) END, ?2, ?3 + j.key, \(SQLiteSchema.person("s.metadata"))
        FROM json_each(?1) j CROSS JOIN sample s ON s.id = j.value
        """

    /// Tombstones and deletes the correlations at `rowIDs` with their members and linked samples, as
    /// ``tombstoneAndDelete(rowID:_:)`` of each member, linked sample and then correlation in turn would; returns their
    /// type identifiers in that order.
    func tombstoneAndDelete(correlations rowIDs: [Int64], _ ctx: SQLiteWriteContext) throws -> [String] {
        guard !rowIDs.isEmpty else { return [] }
        try ctx.flushPending()  // rows may be pending
        let rows = try Row.fetchAll(ctx.db.cachedStatement(sql: Self.deletionOrderSQL), arguments: [Self.jsonArray(rowIDs)])
        let ids = Self.jsonArray(rows.map { $0[0] as Int64 })
        try ctx.db.cachedStatement(sql: Self.tombstoneManySQL).execute(arguments: [ids, ctx.now, ctx.nextSeqs(rows.count)])
        try ctx.db.cachedStatement(sql: "DELETE FROM sample WHERE id IN (SELECT value FROM json_each(?))").execute(arguments: [ids])
        return rows.map { $0[1] }
    }

    private static func jsonArray(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }
}
