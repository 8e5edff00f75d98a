import Foundation

/// An immutable group of quantity samples saved and deleted together (HealthKit: `HKCorrelation`).
///
/// Blood pressure: exactly one systolic and one diastolic member (plus an optional mean), all
/// with the correlation's dates (docs/reference/HEALTH-STORE.md §2). ``linkedSamples`` is a cuffd extension for
/// samples that belong with the correlation without being members, such as the cuff's pulse: "The
/// pulse a cuff reports is not a member of the BP correlation" (docs/reference/HEALTH-STORE.md §1), yet it is
/// written in the same transaction and deleted with it.
public struct Correlation: Sendable, Hashable, Identifiable {
    /// Object identity.
    public let uuid: UUID
    /// The correlation type.
    public let type: CorrelationType
    /// Start of the interval.
    public let startDate: Date
    /// End of the interval.
    public let endDate: Date
    /// Members (HealthKit's `objects`).
    public let objects: [QuantitySample]
    /// Samples saved and deleted with the correlation but not members (e.g. pulse).
    public let linkedSamples: [QuantitySample]
    /// IANA time zone.
    public let timeZoneIdentifier: String?
    /// The device that measured.
    public var device: HealthDevice? { sharedDevice?.value }
    /// Typed metadata (the correlation's own sync identifier lives here).
    public let metadata: HealthMetadata
    /// Writer and version; nil until saved.
    public var sourceRevision: SourceRevision? { sharedRevision?.value }
    let sharedDevice: SharedValue<HealthDevice>?
    let sharedRevision: SharedValue<SourceRevision>?

    public var id: UUID { uuid }

    /// A new correlation with a fresh UUID.
    public init(
        uuid: UUID = .timeOrdered(), type: CorrelationType, start: Date, end: Date, objects: [QuantitySample],
        linkedSamples: [QuantitySample] = [], timeZoneIdentifier: String? = nil, device: HealthDevice? = nil,
        metadata: HealthMetadata = HealthMetadata(), sourceRevision: SourceRevision? = nil
    ) {
        self.uuid = uuid
        self.type = type
        self.startDate = start
        self.endDate = end
        self.objects = objects
        self.linkedSamples = linkedSamples
        self.timeZoneIdentifier = timeZoneIdentifier
        sharedDevice = device.map(SharedValue.init)
        self.metadata = metadata
        sharedRevision = sourceRevision.map(SharedValue.init)
    }

    /// The member of `type`, if any.
    public func member(_ type: QuantityType) -> QuantitySample? { objects.first { $0.type == type } }

    /// A correlation sharing device and revision storage (decoding).
    init(
        uuid: UUID, type: CorrelationType, start: Date, end: Date, objects: [QuantitySample], linkedSamples: [QuantitySample],
        timeZoneIdentifier: String?, sharedDevice: SharedValue<HealthDevice>?, metadata: HealthMetadata,
        sharedRevision: SharedValue<SourceRevision>?
    ) {
        self.uuid = uuid
        self.type = type
        self.startDate = start
        self.endDate = end
        self.objects = objects
        self.linkedSamples = linkedSamples
        self.timeZoneIdentifier = timeZoneIdentifier
        self.sharedDevice = sharedDevice
        self.metadata = metadata
        self.sharedRevision = sharedRevision
    }

    func with(objects: [QuantitySample], linked: [QuantitySample], sourceRevision: SharedValue<SourceRevision>?) -> Correlation {
        Correlation(
            uuid: uuid, type: type, start: startDate, end: endDate, objects: objects, linkedSamples: linked,
            timeZoneIdentifier: timeZoneIdentifier, sharedDevice: sharedDevice, metadata: metadata, sharedRevision: sourceRevision)
    }
}
