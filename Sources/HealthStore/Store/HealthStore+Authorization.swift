import Foundation

/// Per-client, per-type authorization (docs/reference/HEALTH-STORE.md §6): share permission to save; without read
/// permission a client "see[s] only the data that your app has written"; the daemon writes and
/// reads cuff data under its own source; root or the admin group grants and revokes.
extension HealthStore {
    public func authorizationStatus(for type: QuantityType, as client: HealthClient) throws(HealthStoreError) -> AuthorizationStatus {
        if client.isDaemon { return .sharingAuthorized }
        guard let grant = try engine.grant(uid: client.uid, type: type) else { return .notDetermined }
        return grant.canShare ? .sharingAuthorized : .sharingDenied
    }

    public func setAuthorization(_ grant: AuthorizationGrant, by client: HealthClient) throws(HealthStoreError) {
        guard client.isAdministrator(adminGroup: configuration.adminGroup) else { throw .notAdministrator(uid: client.uid) }
        _ = try configuration.quantityTypes.type(grant.type.identifier)
        try engine.setGrant(grant)
    }

    public func grants(of uid: UInt32) throws(HealthStoreError) -> [AuthorizationGrant] {
        var grants: [AuthorizationGrant] = []
        for type in configuration.quantityTypes.all.sorted(by: { $0.identifier < $1.identifier }) {
            if let grant = try engine.grant(uid: uid, type: type), grant.canRead || grant.canShare { grants.append(grant) }
        }
        return grants
    }

    func requireShare(_ type: QuantityType, _ client: HealthClient) throws(HealthStoreError) {
        switch try authorizationStatus(for: type, as: client) {
        case .sharingAuthorized: return
        case .sharingDenied: throw .authorizationDenied(type: type.identifier)
        case .notDetermined: throw .authorizationNotDetermined(type: type.identifier)
        }
    }

    /// Whose samples of `type` `client` may read: nil for none (it sees only its own writes), else the people a read
    /// grant names, or nil people for everyone's.
    func readScope(_ type: QuantityType, _ client: HealthClient) throws(HealthStoreError) -> ReadScope? {
        if client.isDaemon { return ReadScope(people: nil) }
        guard let grant = try engine.grant(uid: client.uid, type: type), grant.canRead else { return nil }
        return ReadScope(people: grant.people)
    }

    /// Whose objects of `type` `client` may read: every type it involves must be readable, and only the people all of
    /// them name are.
    func readScope(_ type: HealthObjectType, _ client: HealthClient) throws(HealthStoreError) -> ReadScope? {
        var scope = ReadScope(people: nil)
        for member in type.authorizationTypes {
            guard let readable = try readScope(member, client) else { return nil }
            scope = scope.narrowed(to: readable)
        }
        return scope
    }

    /// Whether `client` may read the samples of `type` of everyone `scope` covers: the members and linked samples it is
    /// shown of the correlations it reads in `scope` (nil: only its own), so that a reading's pulse is not shown to a
    /// reader of the reading who may not read that person's heart rate.
    func covers(_ type: QuantityType, _ scope: ReadScope?, _ client: HealthClient) throws(HealthStoreError) -> Bool {
        guard let readable = try readScope(type, client) else { return false }
        guard let people = readable.people else { return true }
        guard let wanted = scope?.people else { return false }
        return wanted.isSubset(of: people)
    }

    /// Whose samples a read grant covers.
    struct ReadScope: Equatable {
        /// The people (``MetadataKey/personIdentifier``); nil for everyone, samples of no person included.
        var people: Set<String>?

        /// What both scopes cover.
        func narrowed(to other: ReadScope) -> ReadScope {
            guard let mine = people else { return other }
            return ReadScope(people: other.people.map(mine.intersection) ?? mine)
        }
    }

    /// What of a type's objects a client sees.
    enum Visibility: Equatable {
        /// Every object: it may read the type.
        case all
        /// The objects of these people: it may read theirs only.
        case people(Set<String>)
        /// Only what it wrote itself, under this source.
        case own(String)
        /// Nothing: it may not read the type and has written nothing, so a query is answered without reading data.
        case none
    }

    /// What of `type` `client` sees: its grants, and whether its source ever wrote to the store.
    func visibility(of type: HealthObjectType, _ client: HealthClient) throws(HealthStoreError) -> Visibility {
        // Grants of types naming no person in common read nobody's: as no read grant.
        if let scope = try readScope(type, client), scope.people?.isEmpty != true {
            return scope.people.map(Visibility.people) ?? .all
        }
        let own = configuration.source(for: client).bundleIdentifier
        return try engine.knowsSource(own) ? .own(own) : .none
    }

    /// Whether `client` may see any object of `types`: it may read one of them, or has written objects of its own.
    /// A client that sees none is answered from its grants alone: every query returns nothing without reading any
    /// sample (the change feed reads only its anchor), so a caller without grants costs a store nothing, however
    /// large it is.
    public func seesAny(of types: Set<HealthObjectType>, as client: HealthClient) throws(HealthStoreError) -> Bool {
        for type in types where try visibility(of: type, client) != .none { return true }
        return false
    }

    /// `predicate`, restricted to the client's own source when it may not read `type`, or to the people its grant
    /// names; nil when it sees nothing of `type` (``Visibility/none``). Every query passes here, so its dates are
    /// checked here too.
    func visible(_ predicate: SamplePredicate, _ type: HealthObjectType, _ client: HealthClient) throws(HealthStoreError) -> SamplePredicate? {
        for date in predicate.dates { try Self.checkSupported(date) }
        switch try visibility(of: type, client) {
        case .all: return predicate
        case .people(let people): return predicate.restricted(toPeople: people)
        case .own(let source): return predicate.restricted(toSource: source)
        case .none: return nil
        }
    }

    /// The change feed's scope of each type `client` sees something of: every source, its own, or the people its grant
    /// names; the types it sees nothing of are left out.
    func changeFilters(_ types: [HealthObjectType], _ client: HealthClient) throws(HealthStoreError) -> [String: ChangeScope] {
        var filters: [String: ChangeScope] = [:]
        for type in types {
            switch try visibility(of: type, client) {
            case .all: filters[type.identifier] = .everything
            case .people(let people): filters[type.identifier] = ChangeScope(people: people)
            case .own(let source): filters[type.identifier] = ChangeScope(source: source)
            case .none: break
            }
        }
        return filters
    }
}
