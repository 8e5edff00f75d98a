import HealthStore

extension Daemon {
    /// `cuffd --rewrite-store`: the store of `options` (its `--store`, or the configuration's `[Store] Path`) rewritten
    /// with the page size of a new store, with cuffd stopped (docs/health-store.md, "Bytes written"); what was done,
    /// for the administrator.
    public static func rewriteStore(_ options: DaemonOptions) throws(StartupError) -> String {
        let path: String
        if let storePath = options.storePath { path = storePath } else { path = try options.loadConfiguration().storePath }
        let sizes: (before: Int, after: Int)
        do {
            sizes = try HealthStore.rewritePages(path: path)
        } catch {
            if case .databaseBusy = error { throw .storeInUse(path) }
            throw .store(path: path, reason: error.description)
        }
        if sizes.before == sizes.after { return "\(path) has \(sizes.after)-byte pages already: left as it was" }
        return "\(path) rewritten with \(sizes.after)-byte pages (it had \(sizes.before)-byte pages)"
    }
}
