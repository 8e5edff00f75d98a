import Foundation
import GRDB

/// The edit history (migration v10, docs/health-store.md "Edit history"): one `edit_history` row per correlation
/// entered, annotated or deleted on request, written by the transaction that makes the change, and read back by sync
/// identifier in the scope of the reader.
extension SQLiteWriteContext {
    /// Records that `uid` did `action` to the correlation of `typeID` and `sourceID` holding `syncIdentifier`, now a
    /// reading of `person`, changing `keys`.
    func recordEdit(
        _ action: EditRecord.Action, typeID: Int64, sourceID: Int64, syncIdentifier: String, person: String?, uid: UInt32, keys: [String]
    ) throws {
        try db.cachedStatement(sql: """
            INSERT INTO edit_history (type_id, source_id, sync_identifier, person, uid, action, changed_keys, at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [typeID, sourceID, syncIdentifier, person, Int64(uid), action.rawValue, keys.sorted().joined(separator: ","), now])
    }
}

extension SQLiteEngine {
    public func editHistory(of type: String, syncIdentifier: String, scope: ChangeScope) throws(HealthStoreError) -> [EditRecord] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT h.action, h.uid, h.changed_keys, h.at, h.person FROM edit_history h
                JOIN sample_type t ON t.id = h.type_id JOIN source src ON src.id = h.source_id
                WHERE h.sync_identifier = ? AND t.identifier = ? AND (?3 IS NULL OR src.bundle_identifier = ?3)
                ORDER BY h.id
                """, arguments: [syncIdentifier, type, scope.source])
            return rows.compactMap { row -> EditRecord? in
                if let people = scope.people, !((row[4] as String?).map(people.contains) ?? false) { return nil }
                let keys: String = row[2]
                // The table's CHECK admits the actions' raw values only.
                return EditRecord(
                    syncIdentifier: syncIdentifier, action: EditRecord.Action(rawValue: row[0])!, uid: UInt32(row[1] as Int64),
                    changedKeys: keys.isEmpty ? [] : keys.split(separator: ",").map(String.init), date: SQLiteCoding.date(row[3]))
            }
        }
    }
}
