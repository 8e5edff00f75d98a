import Foundation
import HealthStore

/// A heart-rate sample as cuffd reports it to its clients (the D-Bus `HeartRates` method, `cuffctl heart-rate`):
/// one stored `heartRate` sample of a Heart Rate sensor — not the pulse of a blood-pressure reading, which
/// rides on its reading — with what the sensor said of its skin contact, energy and beat-to-beat intervals.
public struct StoredHeartRate: Sendable, Hashable {
    public var beatsPerMinute: Double
    /// When the gateway received it (0x2A37 carries no time).
    public var time: Date
    /// `detected`, `notDetected` or `notSupported` (docs/dbus-api.md).
    public var sensorContact: String
    /// Kilojoules since the sensor's last reset, when it sent the field.
    public var energyExpended: UInt16?
    /// Beat-to-beat intervals, oldest first, in 1/1024 s.
    public var rrIntervals: [UInt16]
    /// The sensor as a reading's device (``ReadingDictionary/device(_:)``).
    public var device: [String: String]
    public var person: String?
    public var syncIdentifier: String
    public var position: SamplePosition

    /// The names of ``MetadataKey/heartRateSensorContact``'s codes 0, 1 and 2.
    static let contactNames = ["notSupported", "notDetected", "detected"]

    public init?(_ sample: QuantitySample) {
        guard sample.type == .heartRate, let value = try? sample.quantity.doubleValue(for: .countPerMinute) else { return nil }
        let metadata = sample.metadata
        beatsPerMinute = value
        time = sample.startDate
        if case let .integer(code)? = metadata[.heartRateSensorContact], Self.contactNames.indices.contains(Int(code)) {
            sensorContact = Self.contactNames[Int(code)]
        } else {
            sensorContact = Self.contactNames[0]
        }
        if case let .integer(energy)? = metadata[.energyExpended] { energyExpended = UInt16(exactly: energy) }
        if case let .string(list)? = metadata[.rrIntervals] { rrIntervals = list.split(separator: ",").compactMap { UInt16($0) } } else { rrIntervals = [] }
        device = ReadingDictionary.device(sample.device)
        person = metadata.personIdentifier
        syncIdentifier = metadata.syncIdentifier ?? sample.uuid.uuidString
        position = SamplePosition(sample)
    }
}
