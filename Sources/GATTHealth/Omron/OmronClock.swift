/// Where an Omron model keeps its clock in the settings area, and how a host sets it (docs/omron.md §4a; omblepy
/// `deviceSpecific/hem-7155t.py`, `hem-7361t.py`, `hem-7322t.py`, `hem-7600t.py` `deviceSpecific_syncWithSystemTime`;
/// hass-omron `devices.py` `TimeSyncLayout`, `omron_driver.py` `_encode_eeprom_time_payload`). The host reads the block, replaces the time and the check byte, keeps
/// every other byte, and writes the block back at the settings write address.
public enum OmronClock: Hashable, Sendable {
    /// 16 bytes at settings offset 0x2C: bytes 8–13 year − 2000, month, day, hour, minute, second; byte 14 the
    /// low 8 bits of the sum of bytes 0–13; byte 15 zero (hass-omron `MODERN_OFFSET8`).
    case offset8
    /// 10 bytes at settings offset 0x14: bytes 2–7 month, year − 2000, hour, day, second, minute; byte 8 zero;
    /// byte 9 the low 8 bits of the sum of bytes 0–7 (hass-omron `CLASSIC_MIXED`).
    case mixed
    /// As ``offset8``, bytes 8–13 ordered month, year − 2000, hour, day, second, minute (hass-omron
    /// `CLASSIC_OFFSET8`).
    case classicOffset8
    /// As ``mixed``, bytes 2–7 ordered year − 2000, month, day, hour, minute, second (hass-omron `LINEAR_10`).
    case linear10

    /// The block's offset from the settings read (and write) address.
    public var offset: UInt16 {
        switch self {
        case .offset8, .classicOffset8: 0x2C
        case .mixed, .linear10: 0x14
        }
    }

    public var size: Int {
        switch self {
        case .offset8, .classicOffset8: 16
        case .mixed, .linear10: 10
        }
    }

    /// Where year − 2000, month, day, hour, minute, second sit in the block.
    private var positions: [Int] {
        switch self {
        case .offset8: [8, 9, 10, 11, 12, 13]
        case .mixed: [3, 2, 5, 4, 7, 6]
        case .classicOffset8: [9, 8, 11, 10, 13, 12]
        case .linear10: [2, 3, 4, 5, 6, 7]
        }
    }

    /// The time the block shows; nil when it is short or not a real time (an erased block is all `FF`).
    public func time(in block: [UInt8]) -> DateTime? {
        guard block.count >= size else { return nil }
        let field = positions.map { block[$0] }
        let time = DateTime(year: 2000 + UInt16(field[0]), month: field[1], day: field[2], hours: field[3], minutes: field[4], seconds: field[5])
        return time.isRealCalendarTime ? time : nil
    }

    /// `block` showing `time` (years 2000–2255), with its check byte; the other bytes as they were.
    public func setting(_ time: DateTime, in block: [UInt8]) -> [UInt8] {
        var result = Array(block.prefix(size)) + [UInt8](repeating: 0, count: max(0, size - block.count))
        let field = [UInt8(truncatingIfNeeded: time.year &- 2000), time.month, time.day, time.hours, time.minutes, time.seconds]
        for (position, value) in zip(positions, field) { result[position] = value }
        let sum = { (bytes: ArraySlice<UInt8>) in bytes.reduce(UInt8(0), &+) }
        switch self {
        case .offset8, .classicOffset8:
            result[14] = sum(result[0 ..< 14])
            result[15] = 0
        case .mixed, .linear10:
            result[8] = 0
            result[9] = sum(result[0 ..< 8])
        }
        return result
    }
}
