/// `cuff-forward --migrate`: the central schema brought to the version this program writes (``CentralSchema``).
public enum Migration {
    /// Connects once — no retries: a person or a deployment script is waiting — and migrates.
    public static func run(_ configuration: ForwardConfiguration, log: ForwardLog) throws(ForwardFailure) {
        do {
            let database = try CentralServer(configuration: configuration).connect()
            let before = try CentralSchema.migrate(database)
            let after = CentralSchema.version
            log.log(.info, before == after ? "the central schema is at version \(after) already" : "migrated the central schema from version \(before) to \(after)")
        } catch {
            throw ForwardFailure(error)
        }
    }
}
