/// Where the Gateway puts readings. HealthStore implements it; tests use ``InMemoryReadingStore``.
/// A reading counts as received only once `commit` has returned.
public protocol ReadingStore: Sendable {
    /// Stores `reading` durably, or recognizes it by its sync identifier as already stored.
    func commit(_ reading: Reading) async throws -> CommitOutcome
    /// Stores `samples` durably in one transaction, all or nothing, recognizing those already stored by their
    /// sync identifiers; returns how many were new.
    func commit(heartRates samples: [HeartRateSample]) async throws -> Int
}

/// What a commit did.
public enum CommitOutcome: Hashable, Sendable {
    /// A new reading, now stored.
    case stored
    /// A reading the store already held (a cuff re-sending its history); nothing was written.
    case alreadyStored
}

/// A ``ReadingStore`` in memory, deduplicating by sync identifier, for tests and `cuff-sim` demos.
public actor InMemoryReadingStore: ReadingStore {
    public private(set) var readings: [Reading] = []
    public private(set) var heartRates: [HeartRateSample] = []
    private var identifiers: Set<String> = []

    public init() {}

    public func commit(_ reading: Reading) -> CommitOutcome {
        guard identifiers.insert(reading.syncIdentifier).inserted else { return .alreadyStored }
        readings.append(reading)
        return .stored
    }

    public func commit(heartRates samples: [HeartRateSample]) -> Int {
        let new = samples.filter { identifiers.insert($0.syncIdentifier).inserted }
        heartRates += new
        return new.count
    }
}
