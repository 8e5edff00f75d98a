import GATTHealth
import Testing

@Suite("Omron clocks in the settings area (reverse-engineered, docs/omron.md §4a)")
struct OmronClockTests {
    static let time = DateTime(year: 2024, month: 5, day: 6, hours: 7, minutes: 8, seconds: 9)

    @Test func offset8KeepsTheFirstEightBytesAndSumsFourteen() {
        // omblepy `deviceSpecific/hem-7361t.py`: bytes 0–7 kept, then year − 2000, month, day, hour, minute,
        // second, then the low 8 bits of the sum of the fourteen bytes and a 0.
        let block = [UInt8](1 ... 8) + [UInt8](repeating: 0xFF, count: 8)
        let set = OmronClock.offset8.setting(Self.time, in: block)
        #expect(set == [1, 2, 3, 4, 5, 6, 7, 8, 24, 5, 6, 7, 8, 9, UInt8((36 + 59) & 0xFF), 0])
        #expect(OmronClock.offset8.time(in: set) == Self.time)
        #expect(OmronClock.offset8.offset == 0x2C && OmronClock.offset8.size == 16)
    }

    @Test func mixedOrdersMonthYearHourDaySecondMinute() {
        // omblepy `deviceSpecific/hem-7322t.py`: bytes 0–1 kept, then month, year − 2000, hour, day, second,
        // minute, a 0, and the low 8 bits of the sum of bytes 0–7.
        let block: [UInt8] = [0xA0, 0x0B, 0, 0, 0, 0, 0, 0, 0x55, 0x55]
        let set = OmronClock.mixed.setting(Self.time, in: block)
        #expect(set == [0xA0, 0x0B, 5, 24, 7, 6, 9, 8, 0, UInt8((0xA0 + 0x0B + 59) & 0xFF)])
        #expect(OmronClock.mixed.time(in: set) == Self.time)
    }

    @Test func classicOffset8AndLinear10OrderTheFieldsOtherwise() {
        // hass-omron `omron_driver.py` `_encode_eeprom_time_payload`: classic offset8 writes month, year − 2000,
        // hour, day, second, minute at bytes 8–13 with offset8's check; linear 10 year − 2000, month, day, hour,
        // minute, second at bytes 2–7, then 0 and the low 8 bits of the sum.
        let sixteen = [UInt8](1 ... 8) + [UInt8](repeating: 0xFF, count: 8)
        let classic = OmronClock.classicOffset8.setting(Self.time, in: sixteen)
        #expect(classic == [1, 2, 3, 4, 5, 6, 7, 8, 5, 24, 7, 6, 9, 8, UInt8((36 + 59) & 0xFF), 0])
        #expect(OmronClock.classicOffset8.time(in: classic) == Self.time)
        let ten: [UInt8] = [0xA0, 0x0B, 0, 0, 0, 0, 0, 0, 0x55, 0x55]
        let linear = OmronClock.linear10.setting(Self.time, in: ten)
        #expect(linear == [0xA0, 0x0B, 24, 5, 6, 7, 8, 9, 0, UInt8((0xA0 + 0x0B + 59) & 0xFF)])
        #expect(OmronClock.linear10.time(in: linear) == Self.time)
        #expect(OmronClock.linear10.offset == 0x14 && OmronClock.classicOffset8.offset == 0x2C)
    }

    @Test func anErasedOrShortBlockShowsNoTime() {
        #expect(OmronClock.offset8.time(in: [UInt8](repeating: 0xFF, count: 16)) == nil)
        #expect(OmronClock.mixed.time(in: [0, 0, 13, 24, 0, 1, 0, 0, 0, 0]) == nil)
        #expect(OmronClock.mixed.time(in: [0, 0, 5]) == nil)
        #expect(OmronClock.mixed.setting(Self.time, in: []).count == 10)
    }

    @Test func onlyModelsWhoseClockASourceHasSetHaveOne() {
        // omblepy `README.md`: time sync tested on HEM-7155T, 7322T, 7361T, 7600T. hass-omron sets the clock on
        // every poll (`parser.py` `_poll_device_readout`) of the models its `README.md` marks verified:
        // HEM-6161T, 6232T, 7151T, 7320T, 7343T, 7530T besides those.
        #expect(OmronModel.table.filter { $0.clock == nil }.map(\.name) == ["HEM-7150T", "HEM-7342T"])
        #expect(OmronModel.named("HEM-7320T")?.clock == .linear10 && OmronModel.named("HEM-6161T")?.clock == .classicOffset8)
    }
}
