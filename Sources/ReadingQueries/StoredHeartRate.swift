import Foundation
import HealthStore
import ReadingColumns

/// A heart-rate sample as cuffd reports it to its clients (the D-Bus `HeartRates` method, `cuffctl heart-rate`,
/// `HeartRateChangeColumns`): one stored `heartRate` sample of a Heart Rate sensor — not the pulse of a blood-pressure
/// reading, which rides on its reading — with what the sensor said of its skin contact, energy and beat-to-beat
/// intervals (``HeartRateRecord``), and its place for paging.
public struct StoredHeartRate: Sendable, Hashable {
    /// Its values, the sensor as a reading's device (``ReadingDictionary/device(_:)``), the person and the sync identifier.
    public var record: HeartRateRecord
    /// When the gateway received it (0x2A37 carries no time).
    public var time: Date
    public var position: SamplePosition

    public init?(_ sample: QuantitySample) {
        guard sample.type == .heartRate, let value = try? sample.quantity.doubleValue(for: .countPerMinute) else { return nil }
        let metadata = sample.metadata
        var contact = HeartRateRecord.contactNames[0]
        if case let .integer(code)? = metadata[.heartRateSensorContact], HeartRateRecord.contactNames.indices.contains(Int(code)) {
            contact = HeartRateRecord.contactNames[Int(code)]
        }
        var energy: UInt16?
        if case let .integer(kilojoules)? = metadata[.energyExpended] { energy = UInt16(exactly: kilojoules) }
        var intervals: [UInt16] = []
        if case let .string(list)? = metadata[.rrIntervals] { intervals = list.split(separator: ",").compactMap { UInt16($0) } }
        record = HeartRateRecord(
            beatsPerMinute: value, time: sample.startDate.timeIntervalSince1970, sensorContact: contact, energyExpended: energy,
            rrIntervals: intervals, device: ReadingDictionary.device(sample.device), person: metadata.personIdentifier,
            syncIdentifier: metadata.syncIdentifier ?? sample.uuid.uuidString, syncVersion: metadata.syncVersion ?? 0)
        time = sample.startDate
        position = SamplePosition(sample)
    }
}
