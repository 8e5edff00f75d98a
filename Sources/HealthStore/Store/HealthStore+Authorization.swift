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

    func canRead(_ type: QuantityType, _ client: HealthClient) throws(HealthStoreError) -> Bool {
        if client.isDaemon { return true }
        return try engine.grant(uid: client.uid, type: type)?.canRead ?? false
    }

    /// Whether the client may read every type an object of `type` involves.
    func canRead(_ type: HealthObjectType, _ client: HealthClient) throws(HealthStoreError) -> Bool {
        for member in type.authorizationTypes where try !canRead(member, client) { return false }
        return true
    }

    /// What of a type's objects a client sees.
    enum Visibility: Equatable {
        /// Every object: it may read the type.
        case all
        /// Only what it wrote itself, under this source.
        case own(String)
        /// Nothing: it may not read the type and has written nothing, so a query is answered without reading data.
        case none
    }

    /// What of `type` `client` sees: its grants, and whether its source ever wrote to the store.
    func visibility(of type: HealthObjectType, _ client: HealthClient) throws(HealthStoreError) -> Visibility {
        if try canRead(type, client) { return .all }
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

    /// `predicate`, restricted to the client's own source when it may not read `type`; nil when it sees nothing of
    /// `type` (``Visibility/none``). Every query passes here, so its dates are checked here too.
    func visible(_ predicate: SamplePredicate, _ type: HealthObjectType, _ client: HealthClient) throws(HealthStoreError) -> SamplePredicate? {
        for date in predicate.dates { try Self.checkSupported(date) }
        switch try visibility(of: type, client) {
        case .all: return predicate
        case .own(let source): return predicate.restricted(toSource: source)
        case .none: return nil
        }
    }

    /// The change feed's filter of each type `client` sees something of: nil for all sources, or its own; the types
    /// it sees nothing of are left out.
    func changeFilters(_ types: [HealthObjectType], _ client: HealthClient) throws(HealthStoreError) -> [String: String?] {
        var filters: [String: String?] = [:]
        for type in types {
            switch try visibility(of: type, client) {
            case .all: filters[type.identifier] = .some(nil)
            case .own(let source): filters[type.identifier] = .some(source)
            case .none: break
            }
        }
        return filters
    }
}
