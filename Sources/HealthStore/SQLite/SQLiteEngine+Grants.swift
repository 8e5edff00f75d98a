import Foundation
import GRDB

/// Stored per-client, per-type grants, and whether a client's source ever wrote (docs/reference/HEALTH-STORE.md §6).
extension SQLiteEngine {
    public func grant(uid: UInt32, type: QuantityType) throws(HealthStoreError) -> AuthorizationGrant? {
        try read { db in
            try Row.fetchOne(db, sql: """
                SELECT g.can_share, g.can_read FROM authorization_grant g JOIN sample_type t ON t.id = g.type_id
                WHERE g.uid = ? AND t.identifier = ?
                """, arguments: [Int64(uid), type.identifier]).map {
                AuthorizationGrant(uid: uid, type: type, canShare: $0[0], canRead: $0[1])
            }
        }
    }

    public func knowsSource(_ bundleIdentifier: String) throws(HealthStoreError) -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM source WHERE bundle_identifier = ?)", arguments: [bundleIdentifier]) ?? false }
    }

    public func setGrant(_ grant: AuthorizationGrant) throws(HealthStoreError) {
        try write { db in
            let ctx = try SQLiteWriteContext(db, now: Date())
            try db.execute(sql: """
                INSERT INTO authorization_grant (uid, type_id, can_share, can_read) VALUES (?, ?, ?, ?)
                ON CONFLICT (uid, type_id) DO UPDATE SET can_share = excluded.can_share, can_read = excluded.can_read
                """, arguments: [Int64(grant.uid), try ctx.typeID(grant.type.identifier), grant.canShare, grant.canRead])
        }
    }
}
