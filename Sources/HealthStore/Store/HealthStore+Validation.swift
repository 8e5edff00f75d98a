import Foundation

extension HealthStore {
    /// Checks one sample and returns it in canonical unit with its source revision: registered
    /// type, compatible unit, finite value, start ≤ end (HealthKit: `HKSample`), valid metadata.
    /// Implausible but finite values are kept: "flag, do not reject" (docs/reference/HEALTH-STORE.md §1).
    /// `registered`, a type already found in the registry (the previous sample's), spares the
    /// look-up for runs of one type.
    func validated(_ sample: QuantitySample, revision: SharedValue<SourceRevision>, registered: QuantityType? = nil) throws(HealthStoreError) -> QuantitySample {
        let type = sample.type == registered ? sample.type : try configuration.quantityTypes.type(sample.type.identifier)
        guard type == sample.type else { throw .unknownType(sample.type.identifier) }
        let value = try sample.quantity.doubleValue(for: type.canonicalUnit)
        guard value.isFinite, sample.quantity.value.isFinite else { throw .nonFiniteValue(uuid: sample.uuid) }
        try Self.checkSupported(sample.startDate)
        try Self.checkSupported(sample.endDate)
        guard sample.startDate <= sample.endDate else { throw .endBeforeStart(uuid: sample.uuid) }
        try sample.metadata.validate(against: metadataRegistry)
        return sample.normalized(quantity: HealthQuantity(unit: type.canonicalUnit, doubleValue: value), sourceRevision: revision)
    }

    /// Checks a correlation: registered type; each required member exactly once, optional members
    /// at most once, nothing else (HealthKit: `HKCorrelation`); members dated as the correlation
    /// (docs/reference/HEALTH-STORE.md §2); members and linked samples valid; UUIDs distinct.
    func validated(_ correlation: Correlation, revision: SharedValue<SourceRevision>) throws(HealthStoreError) -> Correlation {
        guard let type = configuration.correlationTypes.first(where: { $0.identifier == correlation.type.identifier }),
              type == correlation.type
        else { throw .unknownType(correlation.type.identifier) }
        try Self.checkSupported(correlation.startDate)
        try Self.checkSupported(correlation.endDate)
        guard correlation.startDate <= correlation.endDate else { throw .endBeforeStart(uuid: correlation.uuid) }
        try correlation.metadata.validate(against: metadataRegistry)
        for required in type.requiredMembers where !correlation.objects.contains(where: { $0.type == required }) {
            throw .missingCorrelationMember(correlation: correlation.uuid, type: required.identifier)
        }
        var memberTypes = Set<String>()
        for member in correlation.objects {
            guard type.memberTypes.contains(member.type) else {
                throw .invalidCorrelation(correlation: correlation.uuid, reason: "\(member.type) is not a member type of \(type)")
            }
            guard memberTypes.insert(member.type.identifier).inserted else {
                throw .invalidCorrelation(correlation: correlation.uuid, reason: "more than one \(member.type) member")
            }
            guard member.startDate == correlation.startDate, member.endDate == correlation.endDate else {
                throw .invalidCorrelation(correlation: correlation.uuid, reason: "member \(member.type) dates differ from the correlation's")
            }
        }
        var uuids: Set<UUID> = [correlation.uuid]
        for object in correlation.objects + correlation.linkedSamples where !uuids.insert(object.uuid).inserted {
            throw .duplicateUUID(object.uuid)
        }
        var members: [QuantitySample] = []
        for member in correlation.objects { members.append(try validated(member, revision: revision)) }
        var linked: [QuantitySample] = []
        for sample in correlation.linkedSamples { linked.append(try validated(sample, revision: revision)) }
        return correlation.with(objects: members, linked: linked, sourceRevision: revision)
    }

    /// Refuses a date the store cannot hold exactly (``SamplePredicate/supportedDates``).
    static func checkSupported(_ date: Date) throws(HealthStoreError) {
        guard SamplePredicate.supportedDates.contains(date) else { throw .unsupportedDate(date.timeIntervalSince1970) }
    }
}
