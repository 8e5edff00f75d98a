import GATTHealth
import Testing

/// Bytes real HEM-7188T1 and HEM-7380T1 cuffs sent, as hass-omron's users published them in its debug logs
/// (docs/reference/GATT-HEALTH.md §13.13), decoded as cuffd decodes the same layouts on the models it reads. cuffd
/// refuses both models (docs/compatibility.md) for how they keep a bond, not for their bytes: these tests hold what
/// is known of the bytes for the day it reads them.
@Suite("Omron HEM-7188T1 and HEM-7380T1: the bytes hass-omron's users published")
struct OmronPublishedBytesTests {
    @Test("A HEM-7188T1-LEO's slot 21 is 150/93, pulse 70, 2026-09-09 11:25:01, cuff wrapped well: the little-endian 16-byte layout")
    func hem7188t1Record() throws {
        // hass-omron issue "Cannot pair HEM-7188T1-LEO...", log of 2026-09-09: `slot=21 addr=0x0314
        // raw=7d5d461a2b2541160000200000010200`, parsed there as sys=150 dia=93 bpm=70 dt=2026-09-09 11:25:01 ihb=0
        // mov=0 cuff=1 pos=0. Slot 21 of a ring from 0x01C4 of 16-byte slots is at 0x0314, as the log says.
        #expect(0x01C4 + 21 * OmronRecordLayout.littleEndian16.size == 0x0314)
        let record = try OmronRecord(decoding: bytes("7d5d461a2b2541160000200000010200"), layout: .littleEndian16)
        #expect(record.systolic == 150 && record.diastolic == 93 && record.pulse == 70)
        #expect(record.time == DateTime(year: 2026, month: 9, day: 9, hours: 11, minutes: 25, seconds: 1))
        #expect(!record.irregularHeartbeat && !record.bodyMovement && !record.cuffTooLoose && record.position == 0)
    }

    @Test("Their clock blocks at settings + 0x2C are the offset 8 clock, check byte included", arguments: [
        // hass-omron issue "Cannot pair HEM-7188T1-LEO...": `EEPROM time raw for HEM-7188T1-LEO (… addr=0x0010+0x2C
        // size=16)`, read there as 2026-09-09 11:31:07.
        ("c2a00000000000001a09090b1f07bf00", DateTime(year: 2026, month: 9, day: 9, hours: 11, minutes: 31, seconds: 7)),
        // hass-omron pull request "fix: collect the full TruRead sequence during the index read": `EEPROM time raw for
        // HEM-7380T1 (… addr=0x0010+0x2C size=16)`, read there as 2026-09-20 13:25:08.
        ("c6a40100000000001a09140d1908d000", DateTime(year: 2026, month: 9, day: 20, hours: 13, minutes: 25, seconds: 8)),
    ])
    func clock(_ hex: String, _ time: DateTime) {
        let block = bytes(hex)
        #expect(OmronClock.offset8.time(in: block) == time)
        // Setting the time it shows gives back the block the cuff sent: its check byte is the low 8 bits of the sum of
        // bytes 0–13, as cuffd writes it.
        #expect(OmronClock.offset8.setting(time, in: block) == block)
        #expect(OmronClock.offset8.setting(time, in: block.prefix(8) + [UInt8](repeating: 0, count: 8)) == block)
    }
}
