/// Where a record's fields sit in an Omron slot (docs/omron.md §5; omblepy `deviceSpecific/hem-*.py`, hass-omron
/// `record_parsers.py`).
public enum OmronRecordLayout: Hashable, Sendable {
    /// 16 bytes: systolic − 25, diastolic, pulse, year − 2000, then two little-endian words of date, time and
    /// flags, cuff fit, battery and position bits 12–15 of the second (HEM-7150T, 7151T, 7155T, 7342T, 7343T, 7361T).
    case littleEndian16
    /// The same fields in a 14-byte slot (hass-omron `record_parsers.py` `parse_classic_vital_14`, which reads
    /// them byte by byte whatever the model's byte order; HEM-7320T).
    case littleEndian14
    /// 14 bytes packed most significant bit first: diastolic, systolic − 25, year − 2000 (`yearBits` of it),
    /// pulse, then the flag bits, month, day, hour, position (bits 48–49), battery (50), cuff fit (51), minute,
    /// second (HEM-7322T, 7600T, 6232T, 7530T, 6161T).
    /// `irregularHeartbeatFirst`: the irregular-heartbeat bit precedes the body-movement bit (HEM-6232T).
    case bigEndianPacked14(yearBits: Int, irregularHeartbeatFirst: Bool)

    /// Bytes per slot.
    public var size: Int {
        switch self {
        case .littleEndian16: 16
        case .littleEndian14, .bigEndianPacked14: 14
        }
    }

    /// The systolic is stored as its difference from 25 mmHg (both sources).
    static let systolicBias: UInt16 = 25
    /// The cuff-fit bit, set when the cuff was wrapped well (hass-omron `record_parsers.py`, docs/omron.md §5):
    /// bit 12 of the little-endian word at bytes 6–7, bit 51 of the packed layout (byte 6, 0x10).
    static let cuffFitBit: UInt16 = 0x1000
    static let packedCuffFitBit = 51
    /// The low-battery bit and the two position bits (hass-omron `record_parsers.py`: "bit 13=Battery, bits
    /// 14-15=Position" of that word; bits 50 and 48–49 of the packed layout; docs/omron.md §5).
    static let batteryBit: UInt16 = 0x2000
    static let positionShift: UInt16 = 14
    static let packedBatteryBit = 50
    static let packedPositionBits = 48

    func decode(_ slot: [UInt8]) -> OmronRecord {
        switch self {
        case .littleEndian16, .littleEndian14:
            let date = UInt16(slot[4]) | UInt16(slot[5]) << 8
            let clock = UInt16(slot[6]) | UInt16(slot[7]) << 8
            let time = DateTime(
                year: 2000 + UInt16(slot[3] & 0x3F), month: UInt8(date >> 10 & 0x0F), day: UInt8(date >> 5 & 0x1F),
                hours: UInt8(date & 0x1F), minutes: UInt8(clock >> 6 & 0x3F), seconds: min(UInt8(clock & 0x3F), 59))
            return OmronRecord(
                systolic: UInt16(slot[0]) + Self.systolicBias, diastolic: slot[1], pulse: slot[2], time: time,
                irregularHeartbeat: date & 0x4000 != 0, bodyMovement: date & 0x8000 != 0, cuffTooLoose: clock & Self.cuffFitBit == 0,
                lowBattery: clock & Self.batteryBit != 0, position: UInt8(clock >> Self.positionShift))
        case let .bigEndianPacked14(yearBits, irregularFirst):
            let bits = PackedBits(slot)
            let time = DateTime(
                year: 2000 + UInt16(bits[16 + 8 - yearBits, yearBits]), month: UInt8(bits[34, 4]), day: UInt8(bits[38, 5]),
                hours: UInt8(bits[43, 5]), minutes: UInt8(bits[52, 6]), seconds: min(UInt8(bits[58, 6]), 59))
            return OmronRecord(
                systolic: UInt16(slot[1]) + Self.systolicBias, diastolic: slot[0], pulse: slot[3], time: time,
                irregularHeartbeat: bits[irregularFirst ? 32 : 33, 1] == 1, bodyMovement: bits[irregularFirst ? 33 : 32, 1] == 1,
                cuffTooLoose: bits[Self.packedCuffFitBit, 1] == 0, lowBattery: bits[Self.packedBatteryBit, 1] == 1,
                position: UInt8(bits[Self.packedPositionBits, 2]))
        }
    }

    func encode(_ record: OmronRecord) -> [UInt8] {
        var slot = [UInt8](repeating: 0, count: size)
        let time = record.time
        let systolic = UInt8(clamping: Int(record.systolic) - Int(Self.systolicBias))
        switch self {
        case .littleEndian16, .littleEndian14:
            let date = UInt16(time.hours & 0x1F) | UInt16(time.day & 0x1F) << 5 | UInt16(time.month & 0x0F) << 10
                | (record.irregularHeartbeat ? 0x4000 : 0) | (record.bodyMovement ? 0x8000 : 0)
            let clock = UInt16(time.seconds & 0x3F) | UInt16(time.minutes & 0x3F) << 6 | (record.cuffTooLoose ? 0 : Self.cuffFitBit)
                | (record.lowBattery ? Self.batteryBit : 0) | UInt16(record.position & 0x03) << Self.positionShift
            slot[0 ... 7] = [systolic, record.diastolic, record.pulse, UInt8(truncatingIfNeeded: time.year &- 2000) & 0x3F,
                             UInt8(date & 0xFF), UInt8(date >> 8), UInt8(clock & 0xFF), UInt8(clock >> 8)]
        case let .bigEndianPacked14(yearBits, irregularFirst):
            var bits = PackedBits(slot)
            bits[0, 8] = UInt64(record.diastolic)
            bits[8, 8] = UInt64(systolic)
            bits[16 + 8 - yearBits, yearBits] = UInt64(time.year &- 2000)
            bits[24, 8] = UInt64(record.pulse)
            bits[irregularFirst ? 32 : 33, 1] = record.irregularHeartbeat ? 1 : 0
            bits[irregularFirst ? 33 : 32, 1] = record.bodyMovement ? 1 : 0
            bits[34, 4] = UInt64(time.month)
            bits[38, 5] = UInt64(time.day)
            bits[43, 5] = UInt64(time.hours)
            bits[Self.packedPositionBits, 2] = UInt64(record.position & 0x03)
            bits[Self.packedBatteryBit, 1] = record.lowBattery ? 1 : 0
            bits[Self.packedCuffFitBit, 1] = record.cuffTooLoose ? 0 : 1
            bits[52, 6] = UInt64(time.minutes)
            bits[58, 6] = UInt64(time.seconds)
            slot = bits.bytes
        }
        return slot
    }
}

/// Bit fields of a byte string numbered from its first byte's most significant bit (bit 0), as omblepy's
/// `deviceSpecific` files name them.
struct PackedBits {
    private(set) var bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The `width` bits from bit `first`, the first of them most significant.
    subscript(first: Int, width: Int) -> UInt64 {
        get {
            (first ..< first + width).reduce(0) { value, bit in value << 1 | UInt64(bytes[bit / 8] >> (7 - bit % 8) & 1) }
        }
        set {
            for (offset, bit) in (first ..< first + width).enumerated() {
                let mask = UInt8(1) << (7 - bit % 8)
                if newValue >> (width - 1 - offset) & 1 == 1 { bytes[bit / 8] |= mask } else { bytes[bit / 8] &= ~mask }
            }
        }
    }
}
