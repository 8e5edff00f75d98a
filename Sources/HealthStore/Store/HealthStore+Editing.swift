import Foundation

/// Changing stored readings on request (docs/health-store.md, "Deleting on request"): unlike HealthKit's `deleteObjects`, which
/// deletes only what the caller saved itself (docs/reference/HEALTH-STORE.md §4), a client allowed to share a
/// correlation type's members may change the correlations of that type it may read, whoever saved them — a household's
/// cuff readings are saved by cuffd, and corrected by the people measured; the daemon (cuffd's administrators) may
/// change any.
extension HealthStore {
    /// Deletes the `type` correlations holding `syncIdentifiers` with their members and linked samples, all or nothing,
    /// and remembers each deletion for good (a cuff sending the reading again stores nothing); returns the number of
    /// objects tombstoned. A sync identifier of no correlation the client may change is
    /// ``HealthStoreError/unknownSyncIdentifier(_:)``, and nothing is deleted.
    public func deleteCorrelations(of type: CorrelationType, syncIdentifiers: [String], as client: HealthClient) throws(HealthStoreError) -> Int {
        guard configuration.correlationTypes.contains(type) else { throw .unknownType(type.identifier) }
        guard !syncIdentifiers.isEmpty else { return 0 }
        let scope = try editScope(of: type, client)
        let types = try engine.deleteCorrelations(
            of: type.identifier, syncIdentifiers: syncIdentifiers, source: scope.source, people: scope.people, by: client.uid,
            at: configuration.clock())
        observers.notify(Set(types))
        return types.count
    }

    /// Saves a reading a person entered by hand under the caller's own source (`uid.N`: the source is "the writer
    /// principal", docs/reference/HEALTH-STORE.md §2), marked `WasUserEntered`, without a device. The daemon client
    /// (cuffd's administrators) may; any other client needs share permission for every type the reading holds.
    public func saveEnteredByHand(_ reading: BloodPressureReading, as client: HealthClient) throws(HealthStoreError) -> SaveOutcome<Correlation> {
        if !client.isDaemon { try checkPerson(reading.personIdentifier, in: try editScope(of: .bloodPressure, client).people) }
        var entered = reading
        entered.wasUserEntered = true
        entered.device = nil
        return try save([entered.correlation()], as: client, under: .user(uid: client.uid, groups: client.groups), enteredBy: client.uid)[0]
    }

    /// Saves a new revision of the `type` correlation holding `syncIdentifier` — one the client may change — with
    /// `changes` applied to its metadata and its members' (a value sets its key, nil removes it): new UUIDs, its sync
    /// version one higher so that followers of the feed replace it, its values, device and source kept, all in one
    /// transaction (docs/health-store.md, "Revising on request"). Returns the new revision.
    public func reviseCorrelation(
        of type: CorrelationType, syncIdentifier: String, changes: [MetadataKey: MetadataValue?], as client: HealthClient
    ) throws(HealthStoreError) -> Correlation {
        try reviseCorrelations(of: type, syncIdentifiers: [syncIdentifier], changes: changes, as: client)[0]
    }

    /// ``reviseCorrelation(of:syncIdentifier:changes:as:)`` of every correlation holding one of `syncIdentifiers`, all in
    /// one transaction, all or nothing: one the client may not change, or unknown, is
    /// ``HealthStoreError/unknownSyncIdentifier(_:)`` and nothing is revised. Returns the new revisions, in the order
    /// named (a sync identifier named twice is revised once).
    public func reviseCorrelations(
        of type: CorrelationType, syncIdentifiers: [String], changes: [MetadataKey: MetadataValue?], as client: HealthClient
    ) throws(HealthStoreError) -> [Correlation] {
        guard configuration.correlationTypes.contains(type) else { throw .unknownType(type.identifier) }
        for key in [MetadataKey.syncIdentifier, .syncVersion] where changes.keys.contains(key) {
            throw .invalidMetadata(key: key.name, reason: "a revision keeps the sync identifier and sets the version itself")
        }
        try HealthMetadata(Dictionary(uniqueKeysWithValues: changes.compactMap { key, value in value.map { (key.name, $0) } }))
            .validate(against: metadataRegistry)
        let scope = try editScope(of: type, client)
        if let person = changes[.personIdentifier] {
            try checkPerson(person.flatMap { if case .string(let name) = $0 { name } else { nil } }, in: scope.people)
        }
        let revisions = try engine.reviseCorrelations(
            of: type.identifier, syncIdentifiers: syncIdentifiers, source: scope.source, people: scope.people, changes: changes,
            by: client.uid, at: configuration.clock())
        observers.notify(Set([type.identifier] + revisions.flatMap { ($0.objects + $0.linkedSamples).map(\.type.identifier) }))
        return revisions
    }

    /// Who entered, annotated or deleted the `type` correlation holding `syncIdentifier` on request, when, and which
    /// keys changed, oldest first (docs/health-store.md, "Edit history") — as far as `client` may read it: the daemon
    /// and a reader of the type all of it, a reader of named people the records of their readings, any other client
    /// those of what it saved itself. Nothing to show is ``HealthStoreError/unknownSyncIdentifier(_:)``.
    public func editHistory(of type: CorrelationType, syncIdentifier: String, as client: HealthClient) throws(HealthStoreError) -> [EditRecord] {
        guard configuration.correlationTypes.contains(type) else { throw .unknownType(type.identifier) }
        let scope: ChangeScope? = if client.isDaemon { .everything } else {
            switch try visibility(of: .correlation(type), client) {
            case .all: .everything
            case .people(let people): ChangeScope(people: people)
            case .own(let source): ChangeScope(source: source)
            case .none: nil
            }
        }
        let records = try scope.map { scope throws(HealthStoreError) in
            try engine.editHistory(of: type.identifier, syncIdentifier: syncIdentifier, scope: scope)
        } ?? []
        guard !records.isEmpty else { throw .unknownSyncIdentifier(syncIdentifier) }
        return records
    }

    /// Which `type` correlations `client` may change: for the daemon and a client that may share and read the type,
    /// any; for one whose read grants name people, theirs only; for one that may share but not read it, only its own.
    /// One that may not share the type's members changes nothing (``HealthStoreError/authorizationDenied(type:)`` or
    /// ``HealthStoreError/authorizationNotDetermined(type:)``).
    func editScope(of type: CorrelationType, _ client: HealthClient) throws(HealthStoreError) -> (source: String?, people: Set<String>?) {
        if client.isDaemon { return (nil, nil) }
        for member in HealthObjectType.correlation(type).authorizationTypes { try requireShare(member, client) }
        switch try visibility(of: .correlation(type), client) {
        case .all: return (nil, nil)
        case .people(let people): return (nil, people)
        case .own, .none: return (configuration.source(for: client).bundleIdentifier, nil)
        }
    }

    /// Refuses to give a reading to `person` (nil: to nobody) when the client may change the readings of named people
    /// only and `person` is none of them: it would lose the reading.
    func checkPerson(_ person: String?, in people: Set<String>?) throws(HealthStoreError) {
        guard let people, !(person.map(people.contains) ?? false) else { return }
        throw .authorizationDenied(type: "\(CorrelationType.bloodPressure.identifier) of \(person ?? "nobody")")
    }
}
