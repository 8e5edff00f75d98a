/// Where a session keeps readings the store refused until it takes them, so that a crash or a restart while
/// the disk is full loses nothing the cuff sent (bluetoothd confirmed its indication: the cuff may have deleted
/// its copy). cuffd's is a file of fixed slots allocated in advance, which stays writable on a full disk
/// (docs/gateway.md, "When the store refuses"); ``NoSpool`` keeps nothing, for tests and `cuff-sim replay`.
public protocol ReadingSpool: Sendable {
    /// Keeps `reading` durably; throws when it cannot (the spool is full).
    func keep(_ reading: Reading) async throws
    /// Lets go of the reading with this sync identifier, now that the store has it.
    func release(_ syncIdentifier: String) async
    /// Every reading kept and not released, oldest first (at start-up: those a previous run could not store).
    func kept() async -> [Reading]
}

/// A spool that keeps nothing beyond the session's memory.
public struct NoSpool: ReadingSpool {
    public init() {}
    public func keep(_ reading: Reading) async throws {}
    public func release(_ syncIdentifier: String) async {}
    public func kept() async -> [Reading] { [] }
}
