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

    /// `predicate`, restricted to the client's own source when it may not read `type`.
    /// Every query passes here, so its dates are checked here too.
    func visible(_ predicate: SamplePredicate, _ type: HealthObjectType, _ client: HealthClient) throws(HealthStoreError) -> SamplePredicate {
        for date in predicate.dates { try Self.checkSupported(date) }
        return try canRead(type, client) ? predicate : predicate.restricted(toSource: configuration.source(for: client).bundleIdentifier)
    }
}
