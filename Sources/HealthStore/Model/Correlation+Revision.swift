import Foundation

extension Correlation {
    /// The next revision of this stored correlation (docs/health-store.md, "Revising on request"): `changes` applied to
    /// its metadata and its members' and linked samples' (a value sets its key, nil removes it), each sync version one
    /// higher, new UUIDs; values, dates, device and source revision as they were.
    func revised(_ changes: [MetadataKey: MetadataValue?]) -> Correlation {
        func next(_ metadata: HealthMetadata) -> HealthMetadata {
            var revised = metadata
            for (key, value) in changes { revised[key] = value }
            revised.syncVersion = (metadata.syncVersion ?? 0) + 1
            return revised
        }
        func next(_ sample: QuantitySample) -> QuantitySample {
            QuantitySample(
                uuid: .timeOrdered(), type: sample.type, quantity: sample.quantity, start: sample.startDate, end: sample.endDate,
                timeZoneIdentifier: sample.timeZoneIdentifier, sharedDevice: sample.sharedDevice, metadata: next(sample.metadata),
                sharedRevision: sample.sharedRevision)
        }
        return Correlation(
            uuid: .timeOrdered(), type: type, start: startDate, end: endDate, objects: objects.map(next), linkedSamples: linkedSamples.map(next),
            timeZoneIdentifier: timeZoneIdentifier, sharedDevice: sharedDevice, metadata: next(metadata), sharedRevision: sharedRevision)
    }
}
