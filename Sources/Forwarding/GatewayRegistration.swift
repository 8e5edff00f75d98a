/// Which role may write a gateway's rows centrally: table `gateways` (name → role), read by the row security
/// policy on `readings` (``CentralSchema``, migration 2). `--migrate` registers the configured gateway for the role
/// it logs in as when no role has claimed the name yet; otherwise an administrator does, once per gateway:
/// `INSERT INTO gateways (name, role) VALUES ('ward4', 'gateway2')`.
enum GatewayRegistration {
    /// Claims `gateway` for the session's role unless another role has it.
    static func claim(_ gateway: String, _ database: PostgresConnection) throws(PostgresError) {
        try database.execute("INSERT INTO gateways (name, role) VALUES ($1, current_user) ON CONFLICT (name) DO NOTHING", [gateway])
    }

    /// Refuses to forward as `gateway` unless it is registered for the session's role: the policy would refuse every
    /// row anyway, and this says why before anything is sent.
    static func check(_ gateway: String, _ database: PostgresConnection) throws {
        let rows = try database.execute("SELECT role = current_user, current_user, role FROM gateways WHERE name = $1", [gateway])
        guard let row = rows.first else { throw NotRegistered(gateway: gateway, role: nil) }
        guard row.first == "t" else { throw NotRegistered(gateway: gateway, role: row[2]) }
    }

    struct NotRegistered: Error, CustomStringConvertible {
        let gateway: String
        /// The role that has the name, if another one has it.
        let role: String?

        var description: String {
            if let role {
                return "gateway \"\(gateway)\" belongs to role \(role) on the central server; this role may not write its readings (check Gateway= and the URL's user)"
            }
            return "gateway \"\(gateway)\" is not registered on the central server; an administrator runs "
                + "INSERT INTO gateways (name, role) VALUES ('\(gateway)', '<this gateway's role>')"
        }
    }
}
