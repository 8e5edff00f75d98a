import Foundation

/// An immutable measurement of one quantity type over a time interval (HealthKit: `HKQuantitySample`,
/// docs/reference/HEALTH-STORE.md §2).
///
/// The UUID is assigned at creation; ``sourceRevision`` is assigned by the store at save. After a
/// save, ``quantity`` is in the type's canonical unit; the original unit stays readable through
/// metadata (``MetadataKey/deviceValue``) when the caller records it.
public struct QuantitySample: Sendable, Hashable, Identifiable {
    /// Object identity (a time-ordered v7 UUID by default); saving an object whose UUID exists
    /// fails (`HKHealthStore.h`).
    public let uuid: UUID
    /// The quantity type.
    public let type: QuantityType
    /// The measured amount.
    public let quantity: HealthQuantity
    /// Start of the interval (instant samples: start = end).
    public let startDate: Date
    /// End of the interval; never before ``startDate``.
    public let endDate: Date
    /// IANA time zone of the measurement (`HKMetadataKeyTimeZone`; Health Connect `zoneOffset`).
    public let timeZoneIdentifier: String?
    /// The device that measured.
    public var device: HealthDevice? { sharedDevice?.value }
    /// Typed metadata.
    public let metadata: HealthMetadata
    /// Writer and version; nil until saved.
    public var sourceRevision: SourceRevision? { sharedRevision?.value }
    let sharedDevice: SharedValue<HealthDevice>?
    let sharedRevision: SharedValue<SourceRevision>?

    public var id: UUID { uuid }

    /// A new sample with a fresh UUID.
    public init(
        uuid: UUID = .timeOrdered(), type: QuantityType, quantity: HealthQuantity, start: Date, end: Date,
        timeZoneIdentifier: String? = nil, device: HealthDevice? = nil, metadata: HealthMetadata = HealthMetadata(),
        sourceRevision: SourceRevision? = nil
    ) {
        self.uuid = uuid
        self.type = type
        self.quantity = quantity
        self.startDate = start
        self.endDate = end
        self.timeZoneIdentifier = timeZoneIdentifier
        sharedDevice = device.map(SharedValue.init)
        self.metadata = metadata
        sharedRevision = sourceRevision.map(SharedValue.init)
    }

    /// A sample sharing device and revision storage (decoding, normalization).
    init(
        uuid: UUID, type: QuantityType, quantity: HealthQuantity, start: Date, end: Date, timeZoneIdentifier: String?,
        sharedDevice: SharedValue<HealthDevice>?, metadata: HealthMetadata, sharedRevision: SharedValue<SourceRevision>?
    ) {
        self.uuid = uuid
        self.type = type
        self.quantity = quantity
        self.startDate = start
        self.endDate = end
        self.timeZoneIdentifier = timeZoneIdentifier
        self.sharedDevice = sharedDevice
        self.metadata = metadata
        self.sharedRevision = sharedRevision
    }

    /// The same sample with its quantity in canonical unit and its source revision set.
    func normalized(quantity: HealthQuantity, sourceRevision: SharedValue<SourceRevision>) -> QuantitySample {
        QuantitySample(
            uuid: uuid, type: type, quantity: quantity, start: startDate, end: endDate,
            timeZoneIdentifier: timeZoneIdentifier, sharedDevice: sharedDevice, metadata: metadata, sharedRevision: sourceRevision)
    }
}
