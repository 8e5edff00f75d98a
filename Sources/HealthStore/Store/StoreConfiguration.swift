import Foundation

/// Settings of a store, as small value type.
public struct StoreConfiguration: Sendable {
    /// Known quantity types; samples of other types are rejected.
    public var quantityTypes: QuantityTypeRegistry = .standard
    /// Known correlation types.
    public var correlationTypes: [CorrelationType] = [.bloodPressure]
    /// Known metadata keys; entries under other keys are rejected.
    public var metadataKeys: [MetadataKey] = MetadataKey.standard
    /// How long tombstones are kept. docs/reference/HEALTH-STORE.md §4 asks for ≥ 30 days (Health Connect change
    /// tokens are "only valid for 30 days"); shorter values exist for tests.
    public var tombstoneRetention: TimeInterval = 30 * 86_400
    /// Members of this group (and root) may grant and revoke.
    public var adminGroup: UInt32?
    /// The source the daemon writes cuff data under.
    public var daemonSource = HealthSource(bundleIdentifier: "org.cuffd.gateway", name: "cuffd")
    /// Version recorded in each sample's ``SourceRevision``.
    public var sourceVersion: String?
    /// Host OS version recorded in each ``SourceRevision``.
    public var operatingSystemVersion: String?
    /// Host model recorded in each ``SourceRevision``.
    public var productType: String?
    /// Permission bits of the database file (and, as SQLite copies them, its -wal and -shm files):
    /// 0o600 by default, 0o640 to let a group read backups.
    public var fileMode: UInt16 = 0o600
    /// The clock: save times, tombstone times and retention. Injected for tests.
    public var clock: @Sendable () -> Date = { Date() }

    /// The default configuration.
    public init() {}

    var metadataRegistry: [String: MetadataKey] {
        Dictionary(metadataKeys.map { ($0.name, $0) }, uniquingKeysWith: { _, new in new })
    }

    func source(for client: HealthClient) -> HealthSource {
        client.isDaemon ? daemonSource : HealthSource(bundleIdentifier: "uid.\(client.uid)", name: "uid \(client.uid)")
    }

    func revision(for client: HealthClient) -> SourceRevision {
        SourceRevision(source: source(for: client), version: sourceVersion, operatingSystemVersion: operatingSystemVersion, productType: productType)
    }
}
