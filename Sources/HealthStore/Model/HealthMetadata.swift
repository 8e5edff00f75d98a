import Foundation

/// Typed metadata of a sample: values keyed by ``MetadataKey``, each key accepting one value kind
/// (docs/reference/HEALTH-STORE.md §2). Validated against the store's key registry at save.
///
/// The sync identifier and version are kept in typed fields (they are indexed columns in the
/// store and set on every stored object); every other key lives in ``entries``.
public struct HealthMetadata: Sendable, Hashable {
    /// Values by key name, except the sync identifier and version.
    private(set) var entries: [String: MetadataValue]
    /// `HKMetadataKeySyncIdentifier`.
    public var syncIdentifier: String?
    /// `HKMetadataKeySyncVersion`.
    public var syncVersion: Int64?

    /// Empty metadata.
    public init() { entries = [:] }

    /// Metadata from raw pairs (validated at save).
    public init(_ values: [String: MetadataValue]) {
        entries = [:]
        for (name, value) in values { self[MetadataKey(name, kind: value.kind)] = value }
    }

    /// All values by key name.
    public var values: [String: MetadataValue] {
        var all = entries
        if let syncIdentifier { all[MetadataKey.syncIdentifier.name] = .string(syncIdentifier) }
        if let syncVersion { all[MetadataKey.syncVersion.name] = .integer(syncVersion) }
        return all
    }

    /// The value stored under `key`, whatever its kind.
    public subscript(key: MetadataKey) -> MetadataValue? {
        get {
            switch key.name {
            case MetadataKey.syncIdentifier.name: syncIdentifier.map(MetadataValue.string) ?? entries[key.name]
            case MetadataKey.syncVersion.name: syncVersion.map(MetadataValue.integer) ?? entries[key.name]
            default: entries[key.name]
            }
        }
        set {
            switch (key.name, newValue) {
            case (MetadataKey.syncIdentifier.name, .string(let v)?): syncIdentifier = v
            case (MetadataKey.syncIdentifier.name, nil): syncIdentifier = nil; entries[key.name] = nil
            case (MetadataKey.syncVersion.name, .integer(let v)?): syncVersion = v
            case (MetadataKey.syncVersion.name, nil): syncVersion = nil; entries[key.name] = nil
            default: entries[key.name] = newValue  // wrong kinds stay here for validation to reject
            }
        }
    }

    /// Whether there is no entry.
    public var isEmpty: Bool { entries.isEmpty && syncIdentifier == nil && syncVersion == nil }

    // MARK: Typed accessors

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

    /// What a person wrote about the reading.
    public var note: String? {
        get { if case .string(let v)? = self[.note] { v } else { nil } }
        set { self[.note] = newValue.map(MetadataValue.string) }
    }
    /// Why the reading is kept out of statistics; nil for one that counts.
    public var exclusionReason: String? {
        get { if case .string(let v)? = self[.exclusionReason] { v } else { nil } }
        set { self[.exclusionReason] = newValue.map(MetadataValue.string) }
    }

    private func integer(_ key: MetadataKey) -> Int64? {
        if case .integer(let v)? = self[key] { v } else { nil }
    }
}

extension HealthMetadata {
    /// Checks every entry against `registry` (known key, right kind, allowed range) and the HealthKit
    /// rule "HKMetadataKeySyncVersion must be provided if HKMetadataKeySyncIdentifier is provided"
    /// (`HKMetadata.h`), which cuffd applies both ways (docs/reference/HEALTH-STORE.md §2 "always together").
    func validate(against registry: [String: MetadataKey]) throws(HealthStoreError) {
        if let syncVersion, syncVersion < 0 {
            throw .invalidMetadata(key: MetadataKey.syncVersion.name, reason: "\(syncVersion) outside 0...\(Int64.max)")
        }
        for (name, value) in entries {
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
            if case .date(let v) = value, !SamplePredicate.supportedDates.contains(v) {
                throw .invalidMetadata(key: name, reason: "\(v.timeIntervalSince1970) s since 1970 is not a date between the years 1 and 9999")
            }
        }
        // The loop above rejected sync keys of the wrong kind, the only ones kept in `entries`.
        if (syncIdentifier == nil) != (syncVersion == nil) {
            throw .invalidMetadata(key: MetadataKey.syncIdentifier.name, reason: "SyncIdentifier and SyncVersion must be given together")
        }
    }
}
