/// The writer principal of samples (HealthKit: `HKSource`): cuffd's gateway, an import tool, a
/// user entering data. Assigned by the store from the saving ``HealthClient``, never by the caller.
public struct HealthSource: Sendable, Hashable, Codable {
    /// Stable key (HealthKit's bundle identifier), e.g. `org.cuffd.gateway` or `uid.1000`.
    public let bundleIdentifier: String
    /// Display name.
    public let name: String

    /// A source.
    public init(bundleIdentifier: String, name: String) {
        self.bundleIdentifier = bundleIdentifier
        self.name = name
    }
}

/// A source at a given version (HealthKit: `HKSourceRevision`): assigned by the store at save time.
public struct SourceRevision: Sendable, Hashable, Codable {
    /// The writer.
    public let source: HealthSource
    /// The writer's software version.
    public let version: String?
    /// Operating system version of the host.
    public let operatingSystemVersion: String?
    /// Host model (HealthKit's `productType`).
    public let productType: String?

    /// A revision.
    public init(source: HealthSource, version: String? = nil, operatingSystemVersion: String? = nil, productType: String? = nil) {
        self.source = source
        self.version = version
        self.operatingSystemVersion = operatingSystemVersion
        self.productType = productType
    }
}
