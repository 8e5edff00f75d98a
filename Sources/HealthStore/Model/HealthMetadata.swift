import Foundation

/// Typed metadata of a sample: values keyed by ``MetadataKey``, each key accepting one value kind
/// (HEALTH-STORE.md §2). Validated against the store's key registry at save.
public struct HealthMetadata: Sendable, Hashable {
    /// Values by key name.
    public private(set) var values: [String: MetadataValue]

    /// Empty metadata.
    public init() { values = [:] }

    /// Metadata from raw pairs (validated at save).
    public init(_ values: [String: MetadataValue]) { self.values = values }

    /// The value stored under `key`, whatever its kind.
    public subscript(key: MetadataKey) -> MetadataValue? {
        get { values[key.name] }
        set { values[key.name] = newValue }
    }

    /// Whether there is no entry.
    public var isEmpty: Bool { values.isEmpty }

    // MARK: Typed accessors

    /// `HKMetadataKeySyncIdentifier`.
    public var syncIdentifier: String? {
        get { if case .string(let v)? = self[.syncIdentifier] { v } else { nil } }
        set { self[.syncIdentifier] = newValue.map(MetadataValue.string) }
    }
    /// `HKMetadataKeySyncVersion`.
    public var syncVersion: Int64? {
        get { if case .integer(let v)? = self[.syncVersion] { v } else { nil } }
        set { self[.syncVersion] = newValue.map(MetadataValue.integer) }
    }
    /// `HKMetadataKeyWasUserEntered`.
    public var wasUserEntered: Bool? {
        get { if case .bool(let v)? = self[.wasUserEntered] { v } else { nil } }
        set { self[.wasUserEntered] = newValue.map(MetadataValue.bool) }
    }
    /// BPS user ID (255 = unknown user).
    public var deviceUserID: Int64? {
        get { integer(.deviceUserID) }
        set { self[.deviceUserID] = newValue.map(MetadataValue.integer) }
    }
    /// Raw BLE 0x2A35 status bits.
    public var measurementStatus: Int64? {
        get { integer(.measurementStatus) }
        set { self[.measurementStatus] = newValue.map(MetadataValue.integer) }
    }
    /// Body position.
    public var bodyPosition: BodyPosition? {
        get { integer(.bodyPosition).flatMap(BodyPosition.init(rawValue:)) }
        set { self[.bodyPosition] = newValue.map { .integer($0.rawValue) } }
    }
    /// Measurement location.
    public var measurementLocation: MeasurementLocation? {
        get { integer(.measurementLocation).flatMap(MeasurementLocation.init(rawValue:)) }
        set { self[.measurementLocation] = newValue.map { .integer($0.rawValue) } }
    }
    /// Device clock reading at measurement.
    public var deviceTimestamp: Date? {
        get { if case .date(let v)? = self[.deviceTimestamp] { v } else { nil } }
        set { self[.deviceTimestamp] = newValue.map(MetadataValue.date) }
    }
    /// Device → gateway clock offset, ms.
    public var coincidentTimeOffsetMs: Int64? {
        get { integer(.coincidentTimeOffsetMs) }
        set { self[.coincidentTimeOffsetMs] = newValue.map(MetadataValue.integer) }
    }
    /// The person the device user ID maps to.
    public var personIdentifier: String? {
        get { if case .string(let v)? = self[.personIdentifier] { v } else { nil } }
        set { self[.personIdentifier] = newValue.map(MetadataValue.string) }
    }

    private func integer(_ key: MetadataKey) -> Int64? {
        if case .integer(let v)? = self[key] { v } else { nil }
    }
}

extension HealthMetadata {
    /// Checks every entry against `registry` (known key, right kind, allowed range) and the HealthKit
    /// rule "HKMetadataKeySyncVersion must be provided if HKMetadataKeySyncIdentifier is provided"
    /// (`HKMetadata.h`), which cuffd applies both ways (HEALTH-STORE.md §2 "always together").
    func validate(against registry: [String: MetadataKey]) throws(HealthStoreError) {
        for (name, value) in values {
            guard let key = registry[name] else { throw .invalidMetadata(key: name, reason: "unknown key") }
            guard key.kind == value.kind else {
                throw .invalidMetadata(key: name, reason: "expected \(key.kind.rawValue), got \(value.kind.rawValue)")
            }
            if let range = key.allowedRange, case .integer(let v) = value, !range.contains(v) {
                throw .invalidMetadata(key: name, reason: "\(v) outside \(range.lowerBound)...\(range.upperBound)")
            }
            if case .double(let v) = value, !v.isFinite {
                throw .invalidMetadata(key: name, reason: "non-finite value")
            }
        }
        if (values[MetadataKey.syncIdentifier.name] == nil) != (values[MetadataKey.syncVersion.name] == nil) {
            throw .invalidMetadata(key: MetadataKey.syncIdentifier.name, reason: "SyncIdentifier and SyncVersion must be given together")
        }
    }
}
