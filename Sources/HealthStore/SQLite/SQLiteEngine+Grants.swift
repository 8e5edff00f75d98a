import Foundation
import GRDB

/// Stored per-client, per-type grants with the people a read grant names (migration v7), and whether a client's
/// source ever wrote (docs/reference/HEALTH-STORE.md §6).
extension SQLiteEngine {
    public func grant(uid: UInt32, type: QuantityType) throws(HealthStoreError) -> AuthorizationGrant? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT g.can_share, g.can_read, g.type_id FROM authorization_grant g JOIN sample_type t ON t.id = g.type_id
                WHERE g.uid = ? AND t.identifier = ?
                """, arguments: [Int64(uid), type.identifier]) else { return nil }
            let people = try String.fetchAll(
                db, sql: "SELECT person FROM authorization_grant_person WHERE uid = ? AND type_id = ?", arguments: [Int64(uid), row[2] as Int64])
            return AuthorizationGrant(uid: uid, type: type, canShare: row[0], canRead: row[1], people: people.isEmpty ? nil : Set(people))
        }
    }

    public func knowsSource(_ bundleIdentifier: String) throws(HealthStoreError) -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM source WHERE bundle_identifier = ?)", arguments: [bundleIdentifier]) ?? false }
    }

    public func setGrant(_ grant: AuthorizationGrant) throws(HealthStoreError) {
        try write { db in
            let ctx = try SQLiteWriteContext(db, now: Date())
            let key: StatementArguments = [Int64(grant.uid), try ctx.typeID(grant.type.identifier)]
            try db.execute(sql: """
                INSERT INTO authorization_grant (uid, type_id, can_share, can_read) VALUES (?, ?, ?, ?)
                ON CONFLICT (uid, type_id) DO UPDATE SET can_share = excluded.can_share, can_read = excluded.can_read
                """, arguments: key + [grant.canShare, grant.canRead])
            try db.execute(sql: "DELETE FROM authorization_grant_person WHERE uid = ? AND type_id = ?", arguments: key)
            for person in grant.people?.sorted() ?? [] {
                try db.execute(sql: "INSERT INTO authorization_grant_person (uid, type_id, person) VALUES (?, ?, ?)", arguments: key + [person])
            }
        }
    }
}
