import Foundation
import GATTHealth
import Gateway

/// A ``Reading`` as the spool file keeps it: its fields as plain values, JSON-encoded (docs/gateway.md, "When
/// the store refuses"). The MAP or pulse a reading left out as implausible is not kept: it is in the journal.
struct SpooledReading: Codable {
    struct Time: Codable {
        var year: UInt16, month: UInt8, day: UInt8, hours: UInt8, minutes: UInt8, seconds: UInt8
    }

    var device: DeviceIdentity
    var userID: UInt8?
    var person: String?
    var unit: String
    var systolic: UInt16
    var diastolic: UInt16
    var meanArterialPressure: UInt16?
    var pulseRate: UInt16?
    var status: UInt16?
    var deviceTime: Time?
    var receivedAt: Double
    var clockOffset: Duration?
    var sequenceNumber: UInt16?
    var payload: [UInt8]

    init(_ reading: Reading) {
        device = reading.device
        userID = reading.userID
        person = reading.person
        unit = reading.unit.rawValue
        systolic = reading.systolic.bitPattern
        diastolic = reading.diastolic.bitPattern
        meanArterialPressure = reading.meanArterialPressure?.bitPattern
        pulseRate = reading.pulseRate?.bitPattern
        status = reading.status?.rawValue
        deviceTime = reading.deviceTime.map { Time(year: $0.year, month: $0.month, day: $0.day, hours: $0.hours, minutes: $0.minutes, seconds: $0.seconds) }
        receivedAt = reading.receivedAt.timeIntervalSince1970
        clockOffset = reading.clockOffset
        sequenceNumber = reading.sequenceNumber
        payload = reading.payload
    }

    /// The reading again; nil for a unit this build does not know.
    var reading: Reading? {
        guard let unit = PressureUnit(rawValue: unit) else { return nil }
        return Reading(
            device: device, userID: userID, person: person, unit: unit, systolic: MedFloat16(bitPattern: systolic),
            diastolic: MedFloat16(bitPattern: diastolic), meanArterialPressure: meanArterialPressure.map(MedFloat16.init(bitPattern:)),
            pulseRate: pulseRate.map(MedFloat16.init(bitPattern:)), status: status.map(BloodPressureMeasurementStatus.init(rawValue:)),
            deviceTime: deviceTime.map { DateTime(year: $0.year, month: $0.month, day: $0.day, hours: $0.hours, minutes: $0.minutes, seconds: $0.seconds) },
            receivedAt: Date(timeIntervalSince1970: receivedAt), clockOffset: clockOffset, sequenceNumber: sequenceNumber,
            payload: payload)
    }
}
