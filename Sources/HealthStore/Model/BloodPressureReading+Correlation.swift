import Foundation

extension BloodPressureReading {
    /// Suffixes appended to the reading's sync identifier for its member and linked samples, so
    /// each object keeps a unique (source, syncIdentifier) key (docs/reference/HEALTH-STORE.md §3).
    enum MemberSuffix {
        static let systolic = "#systolic"
        static let diastolic = "#diastolic"
        static let mean = "#mean"
        static let pulse = "#pulse"
    }

    /// The correlation this reading is stored as: members and pulse share the effective date,
    /// device, time zone and common metadata; each object carries its own sync identifier
    /// (reading id + suffix) with the reading's version.
    public func correlation() -> Correlation {
        let date = effectiveDate
        var common = HealthMetadata()
        common.deviceUserID = deviceUserID.map(Int64.init)
        common.personIdentifier = personIdentifier
        common.measurementStatus = measurementStatus.map(Int64.init)
        common.bodyPosition = bodyPosition
        common.measurementLocation = measurementLocation
        common.deviceTimestamp = deviceTimestamp
        common.coincidentTimeOffsetMs = clockOffsetMs
        common.wasUserEntered = wasUserEntered
        if wasUserEntered { common[.recordingMethod] = .integer(3) }
        common.note = note
        if let deviceValue { common[.deviceValue] = .string(deviceValue) }

        func sample(_ type: QuantityType, _ value: Double, _ unit: HealthUnit, _ suffix: String) -> QuantitySample {
            var metadata = common
            metadata.syncIdentifier = syncIdentifier + suffix
            metadata.syncVersion = syncVersion
            return QuantitySample(
                type: type, quantity: HealthQuantity(unit: unit, doubleValue: value), start: date, end: date,
                timeZoneIdentifier: timeZoneIdentifier, device: device, metadata: metadata)
        }
        var members = [
            sample(.bloodPressureSystolic, systolic, pressureUnit, MemberSuffix.systolic),
            sample(.bloodPressureDiastolic, diastolic, pressureUnit, MemberSuffix.diastolic),
        ]
        if let mean { members.append(sample(.bloodPressureMean, mean, pressureUnit, MemberSuffix.mean)) }
        let linked = pulse.map { [sample(.heartRate, $0, pulseUnit, MemberSuffix.pulse)] } ?? []
        var metadata = common
        metadata.syncIdentifier = syncIdentifier
        metadata.syncVersion = syncVersion
        return Correlation(
            type: .bloodPressure, start: date, end: date, objects: members, linkedSamples: linked,
            timeZoneIdentifier: timeZoneIdentifier, device: device, metadata: metadata)
    }
}
