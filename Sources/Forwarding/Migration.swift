/// `cuff-forward --migrate`: the central schema brought to the version this program writes (``CentralSchema``), and
/// the configured gateway registered for the role it logs in as, if no other role has it (``GatewayRegistration``).
public enum Migration {
    /// Connects once — no retries: a person or a deployment script is waiting — and migrates.
    public static func run(_ configuration: ForwardConfiguration, log: ForwardLog) throws(ForwardFailure) {
        guard let settings = configuration.postgreSQL else {
            throw ForwardFailure(message: "--migrate applies the PostgreSQL schema, and forward.conf has no [PostgreSQL] section", status: 78)
        }
        do {
            let database = try CentralServer(settings: settings).connect()
            let before = try CentralSchema.migrate(database)
            try GatewayRegistration.claim(configuration.gateway, database)
            try GatewayRegistration.check(configuration.gateway, database)
            let after = CentralSchema.version
            log.log(.info, before == after ? "the central schema is at version \(after) already" : "migrated the central schema from version \(before) to \(after)")
        } catch {
            throw ForwardFailure(error)
        }
    }
}
