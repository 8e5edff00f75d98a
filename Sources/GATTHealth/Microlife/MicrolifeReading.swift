/// One record of the answer to *get readings* (docs/reference/GATT-HEALTH.md §13.12; joergmlpts/
/// blood-pressure-monitor `bpm_bt.py`, `get_data`): 10 bytes — systolic and diastolic in mmHg, pulse per minute,
/// year − 2000, month, day, hour, minute, one unsigned byte each, and two bytes not interpreted.
public struct MicrolifeReading: Hashable, Sendable {
    public var systolic: UInt8
    public var diastolic: UInt8
    public var pulse: UInt8
    /// The cuff's local wall clock, to the minute (seconds 0).
    public var time: DateTime
    /// The record as read, the two bytes not interpreted included.
    public var bytes: [UInt8]

    /// The bytes of the answer before the first record, not interpreted.
    public static let headSize = 38
    /// The bytes of one record.
    public static let size = 10

    /// The record a cuff stores for a measurement at `time` (its seconds dropped), the two bytes not interpreted 0.
    public init(systolic: UInt8, diastolic: UInt8, pulse: UInt8, time: DateTime) throws(MicrolifeError) {
        guard MicrolifeService.clockYears.contains(time.year) else { throw .yearOutOfRange(time.year) }
        try self.init(decoding: [systolic, diastolic, pulse, UInt8(time.year - 2000), time.month, time.day, time.hours, time.minutes, 0, 0][...])
    }

    /// The answer's payload to *get readings* as a cuff sends it: the head not interpreted (zeros), then `readings`.
    public static func answer(_ readings: [MicrolifeReading]) -> [UInt8] {
        Array(repeating: 0, count: headSize) + readings.flatMap(\.bytes)
    }

    /// Decodes one record. A date that is not a real one is ``MicrolifeError/impossibleDate(_:)``.
    public init(decoding record: ArraySlice<UInt8>) throws(MicrolifeError) {
        guard record.count >= Self.size else { throw .truncated(required: Self.size, actual: record.count) }
        let slot = Array(record.prefix(Self.size))
        systolic = slot[0]
        diastolic = slot[1]
        pulse = slot[2]
        time = DateTime(year: 2000 + UInt16(slot[3]), month: slot[4], day: slot[5], hours: slot[6], minutes: slot[7], seconds: 0)
        bytes = slot
        guard time.isRealCalendarTime else { throw .impossibleDate(time) }
    }

    /// Every record of the answer's payload (the frame already taken off), in the order sent: the 38-byte head,
    /// then whole 10-byte records to the end.
    public static func records(decoding payload: [UInt8]) throws(MicrolifeError) -> [MicrolifeReading] {
        guard payload.count >= headSize else { throw .truncated(required: headSize, actual: payload.count) }
        guard (payload.count - headSize) % size == 0 else { throw .partialRecord(payloadLength: payload.count) }
        var readings: [MicrolifeReading] = []
        for offset in stride(from: headSize, to: payload.count, by: size) {
            readings.append(try MicrolifeReading(decoding: payload[offset ..< offset + size]))
        }
        return readings
    }
}
