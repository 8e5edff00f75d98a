import GATTHealth
import Testing

@Suite("Omron records, models and counters (reverse-engineered, docs/omron.md §4–§5)")
struct OmronRecordTests {
    static let hem7322 = OmronModel.named("HEM-7322T")!
    static let hem7155 = OmronModel.named("BP7350 HEM-7155T")!

    @Test func aRecordOfTheByteAlignedLayoutFromHassOmronsTests() throws {
        // hass-omron `tests/test_record_parsers.py` test_slot13_hem7142t2: a real HEM-7142T2 slot of the same
        // byte layout (14 bytes; the 16-byte models add two bytes no field covers) →
        // sys 126, dia 88, bpm 84, 2026-06-17 19:35:30.
        let slot = bytes("6558541a331ade1800004c00ba00") + [0, 0]
        let record = try OmronRecord(decoding: slot, layout: .littleEndian16)
        #expect(record.systolic == 126 && record.diastolic == 88 && record.pulse == 84)
        #expect(record.time == DateTime(year: 2026, month: 6, day: 17, hours: 19, minutes: 35, seconds: 30))
        #expect(!record.irregularHeartbeat && !record.bodyMovement && record.isTimeKnown)
        // Bytes 6–7, 0x18DE: bit 12 set, the cuff wrapped well (hass-omron reads it so, and names bits 13–15 battery
        // and position).
        #expect(!record.cuffTooLoose)
        // Its test_slot7_hem7142t2, 2026-05-19 19:48:22, bytes 6–7 0x1C16: bit 12 set as well.
        let seventh = try OmronRecord(decoding: bytes("6457431a7316161c000046001900") + [0, 0], layout: .littleEndian16)
        #expect(seventh.time == DateTime(year: 2026, month: 5, day: 19, hours: 19, minutes: 48, seconds: 22) && !seventh.cuffTooLoose)
    }

    @Test func theHEM7320TsLayoutIsTheByteAlignedOneIn14Bytes() throws {
        // hass-omron `device_catalog.py` gives the HEM-7320T `parse_classic_vital_14`, the parser of the HEM-7142T2's
        // real records (`tests/test_record_parsers.py`), which reads them as they are, 14 bytes.
        let model = try #require(OmronModel.named("BLESmart HEM-7320T-Z"))
        #expect(model.layout == .littleEndian14 && model.layout.size == 14)
        let record = try OmronRecord(decoding: bytes("6558541a331ade1800004c00ba00"), model: model)
        #expect(record.systolic == 126 && record.diastolic == 88 && record.pulse == 84)
        #expect(record.time == DateTime(year: 2026, month: 6, day: 17, hours: 19, minutes: 35, seconds: 30))
        #expect(!record.cuffTooLoose && !record.lowBattery && record.position == 0 && !record.improperPosition)
        #expect(record.encoded(model.layout).prefix(8) == bytes("6558541a331ade18")[...])
    }

    @Test func batteryAndPositionBitsOfBothLayouts() throws {
        // hass-omron `record_parsers.py`: bit 13 battery, bits 14–15 position of the word at bytes 6–7; bits 50 and
        // 48–49 of the packed layout. Set on the real records (clear there), every other field kept.
        var aligned = bytes("6457431a7316161c000046001900")
        aligned[7] |= 0x20 | 0x80
        let worn = try OmronRecord(decoding: aligned, layout: .littleEndian14)
        #expect(worn.lowBattery && worn.position == 2 && !worn.cuffTooLoose)
        #expect(worn.time == DateTime(year: 2026, month: 5, day: 19, hours: 19, minutes: 48, seconds: 22))
        var packed = bytes("5b781a4819d71b42000014006996")
        packed[6] |= 0x20 | 0x40
        let low = try OmronRecord(decoding: packed, layout: OmronModel.named("HEM-7600T")!.layout)
        #expect(low.lowBattery && low.position == 1 && !low.cuffTooLoose && low.time.minutes == 45 && low.time.seconds == 2)
        #expect(low.encoded(OmronModel.named("HEM-7600T")!.layout).prefix(8) == packed.prefix(8))
    }

    @Test func positionBitsAreAnImproperPositionOnWristModelsOnly() throws {
        // hass-omron `README.md`: "Improper Position … (wrist models)"; its Type column names HEM-6161T and
        // HEM-6232T wrist cuffs. Elsewhere the bits may count a TruRead series (`omron_driver.py`).
        let record = OmronRecord(systolic: 120, diastolic: 80, pulse: 60, time: DateTime(year: 2025, month: 3, day: 4, hours: 5, minutes: 6, seconds: 7), position: 3)
        for model in OmronModel.table {
            let decoded = try OmronRecord(decoding: record.encoded(model.layout), model: model)
            #expect(decoded.position == 3 && decoded.improperPosition == model.isWrist, "\(model.name)")
        }
        #expect(OmronModel.table.filter(\.isWrist).map(\.name) == ["HEM-6232T", "HEM-6161T"])
    }

    @Test func theCuffFitBitClearIsACuffTooLoose() throws {
        // docs/omron.md §5: the same real records with their cuff-fit bit cleared, every other bit kept.
        var aligned = bytes("6558541a331ade1800004c00ba00") + [0, 0]
        aligned[7] &= ~0x10
        let loose = try OmronRecord(decoding: aligned, layout: .littleEndian16)
        #expect(loose.cuffTooLoose && loose.time.minutes == 35 && loose.time.seconds == 30)
        var packed = bytes("5b781a4819d71b42000014006996")
        packed[6] &= ~0x10
        let loosePacked = try OmronRecord(decoding: packed, layout: OmronModel.named("HEM-7600T")!.layout)
        #expect(loosePacked.cuffTooLoose && loosePacked.time.minutes == 45 && loosePacked.time.seconds == 2)
    }

    @Test func aRecordOfThePackedLayoutFromHassOmronsTests() throws {
        // hass-omron `tests/test_record_parsers.py` test_hem7600t_slot23 ("confirmed against device EEPROM dump"):
        // sys 145, dia 91, bpm 72. The date follows from docs/omron.md §5's bit positions.
        let slot = bytes("5b781a4819d71b42000014006996")
        let record = try OmronRecord(decoding: slot, layout: OmronModel.named("HEM-7600T")!.layout)
        #expect(record.systolic == 145 && record.diastolic == 91 && record.pulse == 72)
        #expect(record.time == DateTime(year: 2026, month: 6, day: 14, hours: 23, minutes: 45, seconds: 2))
        // Byte 6, 0x1B: bit 51 (0x10) set, the cuff wrapped well; bits 48–50 (position, battery) clear.
        #expect(!record.cuffTooLoose && !record.irregularHeartbeat && !record.bodyMovement)
    }

    @Test(arguments: OmronModel.table)
    func everyLayoutRoundTripsItsFlagsAndFields(_ model: OmronModel) throws {
        let record = OmronRecord(
            systolic: 132, diastolic: 84, pulse: 71, time: DateTime(year: 2024, month: 12, day: 31, hours: 23, minutes: 59, seconds: 58),
            irregularHeartbeat: true, bodyMovement: false, lowBattery: true, position: 2)
        let bytes = record.encoded(model.layout)
        #expect(bytes.count == model.layout.size)
        #expect(try OmronRecord(decoding: bytes, layout: model.layout) == record)
        var moved = record
        moved.irregularHeartbeat = false
        moved.bodyMovement = true
        moved.cuffTooLoose = true
        moved.lowBattery = false
        moved.position = 1
        #expect(try OmronRecord(decoding: moved.encoded(model.layout), layout: model.layout) == moved)
    }

    @Test func theIrregularHeartbeatBitComesFirstOnlyOnTheHEM6232T() {
        let record = OmronRecord(systolic: 120, diastolic: 80, pulse: 60, time: DateTime(year: 2024, month: 1, day: 1, hours: 0, minutes: 0, seconds: 0), irregularHeartbeat: true)
        #expect(record.encoded(OmronModel.named("HEM-6232T")!.layout)[4] & 0xC0 == 0x80)
        #expect(record.encoded(Self.hem7322.layout)[4] & 0xC0 == 0x40)
    }

    @Test func secondsAbove59AreRead59() throws {
        // omblepy: "for some reason the second value can range up to 63".
        var slot = OmronRecord(systolic: 120, diastolic: 80, pulse: 60, time: DateTime(year: 2024, month: 3, day: 1, hours: 8, minutes: 5, seconds: 0))
            .encoded(.littleEndian16)
        slot[6] |= 0x3F
        #expect(try OmronRecord(decoding: slot, layout: .littleEndian16).time.seconds == 59)
    }

    @Test func erasedSlotsAndImpossibleDatesAreRefused() {
        #expect(throws: OmronError.erasedSlot) { try OmronRecord(decoding: [UInt8](repeating: 0xFF, count: 14), layout: Self.hem7322.layout) }
        #expect(throws: OmronError.truncated(required: 16, actual: 14)) { try OmronRecord(decoding: [UInt8](repeating: 0, count: 14), layout: .littleEndian16) }
        for (month, day, hour, minute) in [(13, 1, 0, 0), (0, 1, 0, 0), (4, 31, 0, 0), (2, 30, 0, 0), (1, 0, 0, 0), (1, 1, 24, 0), (1, 1, 0, 60)] {
            let time = DateTime(year: 2023, month: UInt8(month), day: UInt8(day), hours: UInt8(hour), minutes: UInt8(minute), seconds: 0)
            let slot = OmronRecord(systolic: 120, diastolic: 80, pulse: 60, time: time).encoded(Self.hem7322.layout)
            #expect(throws: OmronError.impossibleDate(time)) { try OmronRecord(decoding: slot, layout: Self.hem7322.layout) }
        }
        // 29 February exists in a leap year only.
        let leap = DateTime(year: 2024, month: 2, day: 29, hours: 0, minutes: 0, seconds: 0)
        #expect((try? OmronRecord(decoding: OmronRecord(systolic: 120, diastolic: 80, pulse: 60, time: leap).encoded(.littleEndian16), layout: .littleEndian16)) != nil)
    }

    @Test func aRecordOfTheYear2000HasAnUnknownTime() throws {
        let reset = OmronRecord(systolic: 120, diastolic: 80, pulse: 60, time: DateTime(year: 2000, month: 1, day: 1, hours: 0, minutes: 12, seconds: 0))
        #expect(try !OmronRecord(decoding: reset.encoded(Self.hem7322.layout), layout: Self.hem7322.layout).isTimeKnown)
    }

    @Test func modelsAreFoundByTheirCodeInANameOrModelNumber() throws {
        #expect(OmronModel.named("hem-7361t")?.users == 2)
        #expect(Self.hem7155.slotsPerUser == 60)
        #expect(OmronModel.named("BLESmart_00000116") == nil)
        #expect(OmronModel.table.count == 21)
        // hass-omron `device_catalog.py` lists HEM-7343T among HEM-7342T's equivalent models: the same memory.
        #expect(OmronModel.named("HEM-7343T")?.userStartAddresses == OmronModel.named("HEM-7342T")?.userStartAddresses)
        // And HEM-7280T among HEM-7322T's: every fact but the name is the HEM-7322T's, read from its Model Number String.
        let hem7280 = try #require(OmronModel.named("BLESmart HEM-7280T-E"))
        #expect(hem7280.name == "HEM-7280T" && hem7280.equivalentOf == "HEM-7322T")
        #expect(hem7280.layout == Self.hem7322.layout && hem7280.userStartAddresses == Self.hem7322.userStartAddresses)
        #expect(hem7280.slotsPerUser == 100 && hem7280.blockSize == Self.hem7322.blockSize && hem7280.clock == .mixed)
        #expect(hem7280.settingsReadAddress == 0x0260 && hem7280.settingsWriteAddress == 0x0286 && hem7280.counters == .bigEndian)
        #expect(Self.hem7322.address(user: 1, slot: 2) == 0x0824 + 28)
    }

    @Test func countersDecodeInTheModelsByteOrder() throws {
        // omblepy `sharedDriver.py`: next slot at 2u, unread at 4 + 2u, low 8 bits of each word; 0x8000 = none.
        let big = try OmronCounters(decoding: [0x00, 0x05, 0x00, 0x63, 0x00, 0x02, 0x80, 0x00], model: Self.hem7322)
        #expect(big == OmronCounters(nextSlots: [5, 99], unread: [2, 0]))
        let little = try OmronCounters(decoding: [0x05, 0x00, 0x3B, 0x00, 0x02, 0x00, 0x00, 0x80] + [UInt8](repeating: 0, count: 8), model: Self.hem7155)
        #expect(little == OmronCounters(nextSlots: [5, 59], unread: [2, 0]))
        #expect(little.encoded(model: Self.hem7155) == [0x05, 0x00, 0x3B, 0x00, 0x02, 0x00, 0x00, 0x80])
        #expect(throws: OmronError.truncated(required: 8, actual: 4)) { try OmronCounters(decoding: [0, 0, 0, 0], model: Self.hem7322) }
        #expect(OmronCounters.resetUnread(model: Self.hem7322) == (offset: 4, bytes: [0x80, 0x00, 0x80, 0x00]) )
        // The HEM-7320T keeps little-endian records but big-endian counters (hass-omron `index_pointer_layout`
        // "endianness": "big"; slot_index_bias −1: the newest record is the slot before the cursor, as omblepy reads).
        let hem7320 = try #require(OmronModel.named("HEM-7320T"))
        #expect(try OmronCounters(decoding: [0x00, 0x3B, 0x80, 0x00, 0x00, 0x03, 0x80, 0x00], model: hem7320) == OmronCounters(nextSlots: [59, 0], unread: [3, 0]))
        #expect(OmronCounters.resetUnread(model: hem7320).bytes == [0x80, 0x00, 0x80, 0x00])
        #expect(OmronModel.table.filter { !$0.hasCounters }.map(\.name) == ["HEM-7530T", "HEM-6161T", "HEM-7142T2", "HEM-716BT2", "HEM-7146T2", "HEM-7188T1", "HEM-7183T1"])
    }

    @Test func unreadSlotsWrapAroundTheRingOldestFirst() {
        let counters = OmronCounters(nextSlots: [5, 2, 0, 7], unread: [3, 4, 0, 250])
        #expect(counters.unreadSlots(user: 0, slotsPerUser: 100) == [2, 3, 4])
        // omblepy `calcRingBufferRecordReadLocations`: the slots before the next one, across the end of the ring.
        #expect(counters.unreadSlots(user: 1, slotsPerUser: 100) == [98, 99, 0, 1])
        #expect(counters.unreadSlots(user: 2, slotsPerUser: 100) == [])
        // More unread than slots: the whole ring, once.
        #expect(counters.unreadSlots(user: 3, slotsPerUser: 10) == [7, 8, 9, 0, 1, 2, 3, 4, 5, 6])
    }
}

/// The bytes of hex text with two digits a byte (the Omron tests' published bytes).
func bytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex)
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0 ... $0 + 1]), radix: 16)! }
}
